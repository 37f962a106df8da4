import { z } from 'zod';
import { CONTEXT_LINE_CHARS, type EditPayload } from '../contract/payloads.js';
import { boundedUnifiedDiff } from '../edit/bounded-diff.js';
import { diffForModel } from '../edit/diff-for-model.js';
import { replaceInText } from '../edit/replace-in-text.js';
import { BriefMemo } from '../fs/brief-memo.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { shareField } from '../text/lazy-string.js';
import { once } from '../text/once.js';
import { applyWrite, writerApproval } from './apply-write.js';
import { isAsciiFile } from './ascii-data.js';
import { checkWriteSize, type LoadedFile } from './file-io.js';
import { countLines, toModelText, withLongLinesCut } from './text-stats.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool, type ToolContext } from './types.js';

export const EditFileInput = z.object({
  path: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of the file to edit.'),
  old_string: z.string().describe('The exact text to replace, with enough surrounding context to be unique.'),
  new_string: z.string().describe('The replacement text (may be empty to delete).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence instead of requiring a unique match.'),
  base_sha256: z
    .string()
    .optional()
    .describe('sha256 from your last read; the edit is refused if the file changed.'),
});
export type EditFileInput = z.infer<typeof EditFileInput>;

export interface EditFileOutput {
  path: string;
  replacements_made: number;
  lines_changed: number;
  match_level: EditPayload['matchLevel'];
  message: string;
  version: number;
  sha256: string;
  diff: string;
}

/**
 * The edit computed last, for a short while: the execution that follows an approval
 * finds the same file bytes and the same request and takes it, instead of running the
 * cascade again and holding a second copy of a big file's new text.
 */
const lastEdit = new BriefMemo<ReturnType<typeof computeFresh>>();

/** Runs the matching cascade on the current file; a failure becomes a ToolError with the path. */
function computeEdit(
  ctx: ToolContext,
  virtualPath: string,
  file: LoadedFile,
  input: EditFileInput,
  verbatim = false,
) {
  // The same bytes (SHA-256) and the same request give the same edit.
  // A file the model may not read unasked is never shown in a failure (only its line numbers).
  const reveal = !ctx.sandbox.needsReadApproval(virtualPath);
  const key = [
    virtualPath,
    file.sha256,
    input.old_string,
    input.new_string,
    input.replace_all ?? false,
    verbatim,
    reveal,
  ];
  const known = lastEdit.get(key);
  if (known) return known;
  const edit = computeFresh(virtualPath, file, input, verbatim, reveal);
  lastEdit.set(key, edit);
  return edit;
}

function computeFresh(
  virtualPath: string,
  file: LoadedFile,
  input: EditFileInput,
  verbatim: boolean,
  reveal: boolean,
) {
  const ascii = isAsciiFile(file);
  const result = replaceInText(file.text, {
    oldString: input.old_string,
    newString: input.new_string,
    replaceAll: input.replace_all ?? false,
    // A person's own new_string (their $EDITOR version) is written as they wrote it.
    verbatim,
    reveal,
    ascii,
    // An ASCII file's own bytes are its text's latin1 bytes: lines are counted there, faster.
    ...(ascii && file.data ? { bytes: file.data } : {}),
  });
  if (!result.ok) {
    throw toolError(result.code, `${virtualPath}: ${result.message}`, {
      ...(result.suggestions ? { suggestions: result.suggestions } : {}),
      ...(result.details ? { details: result.details } : {}),
    });
  }
  return result;
}

/**
 * Up to three lines before line `firstLine` and after line `lastLine` (1-based), as the
 * model sees them (LF, no BOM): found by scanning for newlines from the match, so a
 * million-line file is not split for six lines.
 */
function contextAround(text: string, firstLine: number, lastLine: number): { before: string; after: string } {
  const starts = lineStartsAround(text, firstLine - 3, lastLine + 4);
  const slice = (from: number, to: number) => {
    const a = starts.get(from);
    const b = starts.get(to);
    if (a === undefined) return '';
    // Cut at a later line's start: the newline before it joins nothing. At the end: as it is.
    const lines = b === undefined ? toModelText(text.slice(a)) : toModelText(text.slice(a, b)).slice(0, -1);
    return withLongLinesCut(lines, CONTEXT_LINE_CHARS);
  };
  return {
    before: slice(Math.max(1, firstLine - 3), firstLine),
    after: slice(lastLine + 1, lastLine + 4),
  };
}

/** Offsets where lines `from`..`to` (1-based, clamped) start, found with indexOf. */
function lineStartsAround(text: string, from: number, to: number): Map<number, number> {
  const out = new Map<number, number>();
  let line = 1;
  let at = 0;
  while (line <= to && at <= text.length) {
    if (line >= from) out.set(line, at);
    const nl = text.indexOf('\n', at);
    if (nl === -1) break;
    at = nl + 1;
    line++;
  }
  return out;
}

/** Builds the edit payload for a given set of arguments (also used to re-check edited arguments). */
function buildEditPayload(
  ctx: ToolContext,
  resolved: ResolvedPath,
  file: LoadedFile,
  input: EditFileInput,
): EditPayload {
  const { virtualPath } = resolved;
  const mount = resolved.mount.mountPoint;
  const edit = computeEdit(ctx, virtualPath, file, input, ctx.verbatim);
  // A result over the size limit is refused before anyone is asked, as write_file's is.
  checkWriteSize(ctx, resolved, edit.newText);
  const diff = boundedUnifiedDiff(file.text, edit.newText, {
    oldPath: virtualPath,
    newPath: virtualPath,
    timeBudgetMs: ctx.limits.diffTimeBudgetMs,
    known: edit.unchanged,
    splice: edit.splice,
  });
  const matchLine = edit.matchLines[0] ?? 1;
  const span = toModelText(input.old_string).split('\n').length;
  const context = contextAround(file.text, matchLine, matchLine + span - 1);
  const verb = input.replace_all
    ? `replace ${edit.replacements} occurrences`
    : `replace at line ${matchLine}`;
  const payload: EditPayload = {
    type: 'edit',
    description: `Edit ${virtualPath}: ${verb} (+${diff.added} −${diff.removed})`,
    path: virtualPath,
    mount,
    baseSha256: file.sha256,
    oldString: input.old_string,
    newString: input.new_string,
    replaceAll: input.replace_all ?? false,
    unifiedDiff: '',
    diffLines: diff.diffLines,
    added: diff.added,
    removed: diff.removed,
    diffCoarse: diff.coarse,
    matchLine,
    matchCount: edit.matchLines.length,
    matchLevel: edit.matchLevel,
    contextBefore: context.before,
    contextAfter: context.after,
    fileLines: countLines(file.text),
    fileBytes: file.bytes,
  };
  // Written out only when someone reads it (see lazy-string.ts).
  return shareField(payload, 'unifiedDiff', diff);
}

export const editFile: SandboxTool<EditFileInput, EditFileOutput> = {
  name: 'edit_file',
  description: [
    'Replace text in an existing file: `old_string` must identify exactly one place (include a few surrounding lines to make it unique), unless `replace_all` is true.',
    'Copy old_string from the file as it is now (from read_file, without line numbers).',
    "Matching tolerates trailing whitespace, a different indentation (your new_string is re-indented to the file's) and typographic quotes/dashes; the result says which level matched. An ambiguous match is never applied: you get `edit_not_unique` with the line numbers of every match.",
    'If nothing matches you get `edit_not_found` with the closest region: re-read the file and retry.',
    'Line endings, BOM and the final newline are kept as the file has them. Pass `base_sha256` from your last read to be safe against concurrent changes.',
  ].join(' '),
  inputSchema: EditFileInput,

  needsApproval(input, ctx) {
    return writerApproval(ctx, input.path, input.base_sha256, (resolved, current) => {
      if (!current) throw missing(resolved.virtualPath);
      return buildEditPayload(ctx, resolved, current, input);
    });
  },

  async execute(input, ctx) {
    const out = await applyWrite(ctx, 'edit_file', input.path, input.base_sha256, (current, resolved) => {
      if (!current) throw missing(resolved.virtualPath);
      const edit = computeEdit(ctx, resolved.virtualPath, current, input, ctx.verbatim);
      const diff = once(() =>
        boundedUnifiedDiff(current.text, edit.newText, {
          oldPath: resolved.virtualPath,
          newPath: resolved.virtualPath,
          timeBudgetMs: ctx.limits.diffTimeBudgetMs,
          known: edit.unchanged,
          splice: edit.splice,
          // The model wrote the new text itself: a huge insertion is not echoed back into its context,
          // and a replace_all's diff is built only as far as the result shows it.
          shownPerRun: RESULT_LINES_PER_RUN,
          upTo: ctx.limits.readMaxChars,
        }),
      );
      // The result's diff is written while the disk syncs (its text is written when read).
      const whileSaving = () => void diff().unifiedDiff;
      return { newText: edit.newText, splice: edit.splice, edit, diff, whileSaving };
    });
    const { edit } = out.plan;
    const diff = out.plan.diff();
    const level =
      edit.matchLevel === 'exact' ? '' : ` (matched ignoring ${edit.matchLevel.replace('_', ' ')})`;
    return {
      path: out.resolved.virtualPath,
      replacements_made: edit.replacements,
      lines_changed: edit.linesChanged,
      match_level: edit.matchLevel,
      message: `Replaced ${edit.replacements} occurrence${edit.replacements === 1 ? '' : 's'} in ${out.resolved.virtualPath} at line ${lineList(edit.matchLines)}${level}.`,
      version: out.state.version,
      sha256: out.state.sha256,
      diff: diffForModel(diff.unifiedDiff, ctx.limits.readMaxChars, diff),
    };
  },
};

/** Line numbers listed in a result's message; past them, the count says how many more. */
const LISTED_LINES = 20;

/**
 * The lines matched, each once (a line may hold several matches), the first 20 listed.
 * Matches come in file order: a line's repeats are next to each other (one pass, no
 * set of a million numbers for a big replace_all).
 */
function lineList(matchLines: readonly number[]): string {
  const listed: number[] = [];
  let lines = 0;
  for (let i = 0; i < matchLines.length; i++) {
    if (i > 0 && matchLines[i] === matchLines[i - 1]) continue;
    if (listed.length < LISTED_LINES) listed.push(matchLines[i]!);
    lines++;
  }
  if (lines <= LISTED_LINES) return listed.join(', ');
  return `${listed.join(', ')} and ${(lines - LISTED_LINES).toLocaleString('en')} more`;
}

/** Lines of one added or removed run shown in full in the result's diff (edit_lines shows as many). */
const RESULT_LINES_PER_RUN = 200;

function missing(virtualPath: string) {
  return toolError('not_found', `${virtualPath} does not exist; create it with write_file.`);
}
