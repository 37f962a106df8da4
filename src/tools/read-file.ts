import { z } from 'zod';
import { ApprovalResult } from '../contract/approval-types.js';
import type { EarlierRead } from '../edit/apply-line-edits.js';
import { anchorsNotShownAgain, anchorsShownIn } from '../edit/given-anchors.js';
import { renderHashedPage, renderHashedText } from '../edit/hashed-render.js';
import { lineHashesAt } from '../edit/line-hash.js';
import { shownAnchorsKey } from '../edit/line-hash-cache.js';
import { readAnchors } from '../edit/read-anchors.js';
import { LineIndex } from '../edit/resolve-anchor.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { fileTargetOf } from '../sandbox/target.js';
import { boundaryAtOrBefore } from '../text/text-slices.js';
import { blockedFrom } from './apply-write.js';
import { loadFile } from './file-io.js';
import {
  checkApprovedState,
  checkApprovedTarget,
  loadingApproved,
  resolveApproved,
  resolvedField,
  throughLinks,
} from './file-state.js';
import { type ReadVersion, versionOf } from './read-versions.js';
import { observeVersion } from './shown-versions.js';
import { countLines } from './text-stats.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool, type ToolContext } from './types.js';

export const ReadFileInput = z.object({
  path: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of the file, e.g. "/src/index.ts".'),
  offset: z.number().int().min(1).optional().describe('1-based line to start at (default 1).'),
  limit: z.number().int().min(1).optional().describe('Maximum number of lines to return.'),
  hashes: z
    .boolean()
    .optional()
    .describe('Prefix each line with "LINE#HASH|" anchors for edit_lines (default false).'),
  head: z.number().int().min(1).optional().describe('Only the first N lines (instead of offset/limit).'),
  tail: z.number().int().min(1).optional().describe('Only the last N lines (instead of offset/limit).'),
});
export type ReadFileInput = z.infer<typeof ReadFileInput>;

export interface ReadFileOutput {
  path: string;
  version: number;
  sha256: string;
  content: string;
  start_line: number;
  end_line: number;
  total_lines: number;
  truncated: boolean;
  next_offset: number | null;
  /** Present when the file uses CRLF line endings (content is shown with LF). */
  line_endings?: 'crlf';
}

export const readFile: SandboxTool<ReadFileInput, ReadFileOutput> = {
  name: 'read_file',
  description: [
    'Read a text file from the sandbox, a page of lines at a time.',
    'Returns content plus `version` and `sha256`: keep the sha256 and pass it as `base_sha256` to write_file, edit_file or patch_file so your change is refused (not misapplied) if the file changed meanwhile.',
    'Long files are paged: when `truncated` is true, call again with `offset = next_offset`.',
    'Set `hashes: true` to get each line as `LINE#HASH|content`, the anchors edit_lines needs.',
    'Paths are virtual (e.g. "/src/app.ts"); only the sandbox\'s mounts are reachable.',
  ].join(' '),
  inputSchema: ReadFileInput,

  async needsApproval(input, ctx) {
    try {
      const resolved = ctx.sandbox.resolve(input.path, 'read');
      if (!resolved.mount.readApproval) return ApprovalResult.preApproved();
      const file = await loadFile(ctx, resolved);
      return ApprovalResult.needsApproval(
        {
          type: 'read',
          description: `Read ${resolved.virtualPath}${throughLinks(resolved)}`,
          path: resolved.virtualPath,
          mount: resolved.mount.mountPoint,
          baseSha256: file?.sha256 ?? null,
          fileLines: file ? countLines(file.text) : 0,
          fileBytes: file?.bytes ?? 0,
          fileExists: file !== undefined,
          ...resolvedField(resolved),
        },
        { path: fileTargetOf(resolved) },
      );
    } catch (error) {
      return blockedFrom(error);
    }
  },

  async execute(input, ctx) {
    const resolved = resolveApproved(ctx, 'path', input.path, 'read');
    // An approved read reads the file the person approved, not whatever the name leads to by now.
    checkApprovedTarget(ctx, 'path', resolved);
    const since = ctx.state.now();
    const file = await loadingApproved(ctx, 'path', resolved, () => loadVersion(ctx, resolved));
    if (!file) throw toolError('not_found', `${resolved.virtualPath} does not exist.`);
    // The content the person approved reading (its SHA-256 was shown), not what it became since.
    checkApprovedState(ctx, resolved.virtualPath, ctx.approvedBaseSha256, file);
    const raw = file.text;
    const text = file.modelText;
    const total = file.total;
    const window = headTail(input, total);
    const start = window?.start ?? input.offset ?? 1;
    if (total > 0 && start > total) {
      throw toolError(
        'invalid_argument',
        `offset ${start} is past the end of ${resolved.virtualPath} (${total} lines).`,
        {
          suggestions: [`read_file(path="${resolved.virtualPath}", offset=1)`],
        },
      );
    }
    const maxLines = Math.min(
      window?.limit ?? input.limit ?? ctx.limits.readMaxLines,
      ctx.limits.readMaxLines,
    );
    const page = pickPage(text, file.lineStarts(), start, total, maxLines, ctx.limits.readMaxChars);
    const endLine = start + page.lines - 1;
    const truncated = endLine < total || page.cut;
    const content = page.lines === 0 ? '' : input.hashes ? hashedContent(ctx, file, page, start) : page.text;
    const state = ctx.state.recordRead(resolved.virtualPath, file.sha256, since);
    if (input.hashes) rememberRead(ctx, resolved.hostPath, raw, content, start === 1 && !truncated);
    return {
      path: resolved.virtualPath,
      version: state.version,
      sha256: file.sha256,
      content,
      start_line: page.lines ? start : 0,
      end_line: page.lines ? endLine : 0,
      total_lines: total,
      truncated,
      next_offset: endLine < total ? endLine + 1 : null,
      ...(file.crlf ? { line_endings: 'crlf' as const } : {}),
    };
  },
};

/**
 * The file as read_file pages it: through the toolset's version cache (one lstat
 * decides whether the file is still the version already read; a staged file's
 * content is kept by its SHA-256), or built from what loadFile gives.
 */
async function loadVersion(ctx: ToolContext, resolved: ResolvedPath): Promise<ReadVersion | undefined> {
  if (resolved.kind === 'missing') return undefined;
  const staged = ctx.staging?.file(resolved.hostPath);
  if (staged && ctx.readVersions) return ctx.readVersions.staged(resolved, staged);
  if (!ctx.readVersions || staged !== undefined) {
    const file = await loadFile(ctx, resolved);
    return file && versionOf(file.text, file.bytes, file.sha256, file.data);
  }
  return ctx.readVersions.load(ctx, resolved);
}

/** head/tail as a start line and a line count; they replace offset/limit, so mixing them is refused. */
function headTail(input: ReadFileInput, total: number): { start: number; limit: number } | undefined {
  if (input.head === undefined && input.tail === undefined) return undefined;
  if (input.head !== undefined && input.tail !== undefined)
    throw toolError('invalid_argument', 'Pass head or tail, not both.');
  if (input.offset !== undefined || input.limit !== undefined)
    throw toolError('invalid_argument', 'head/tail replace offset/limit: pass one or the other.');
  if (input.head !== undefined) return { start: 1, limit: input.head };
  const n = input.tail!;
  return { start: Math.max(1, total - n + 1), limit: n };
}

/**
 * The page with LINE#HASH anchors: each line shows the anchor a read of the whole
 * file gives it (readAnchors: unique in the file where possible, so a twin line
 * is named by its context, not a hash shared with its twins). Line hashes and
 * anchors are kept per file version (content SHA-256): paging through a file
 * hashes it once. A cut line is hashed as shown, so it never touches the cache.
 */
function hashedContent(ctx: ToolContext, file: ReadVersion, page: Page, start: number): string {
  const starts = file.lineStarts();
  // A line cut to fit is shown with the whole line's anchor: the part shown may equal another line.
  if (page.cut)
    return renderHashedText(page.text, start, {
      lines: 1,
      known: shownAnchors(ctx, file, starts).subarray(start - 1, start),
    }).content;
  const known = shownAnchors(ctx, file, starts).subarray(start - 1, start - 1 + page.lines);
  // Byte count equal to character count: the whole file is ASCII (from its bytes when this
  // read has them); any other text is laid out as UTF-16 code units, the same way.
  const ascii = file.bytes === file.text.length;
  const source = (ascii && file.modelBytes) || file.modelText;
  return renderHashedPage(source, starts, start - 1, page.lines, page.to, start, known, !ascii);
}

/**
 * The anchors of every line of one file version, from the version cache or
 * computed (and kept): each line hashed in place in the text, from the file's
 * own bytes when the version has them.
 */
function shownAnchors(ctx: ToolContext, file: ReadVersion, starts: Uint32Array): Uint32Array {
  const { sha256, total } = file;
  const key = shownAnchorsKey(sha256);
  const cached = ctx.lineHashes.get(key);
  if (cached?.length === total) return cached;
  let hashes = ctx.lineHashes.get(sha256);
  if (hashes?.length !== total) {
    // ASCII text hashes faster as bytes: its own when this read has them, else encoded once.
    const ascii = file.bytes === file.text.length;
    const bytes = file.modelBytes ?? (ascii ? Buffer.from(file.modelText, 'latin1') : undefined);
    hashes = lineHashesAt(file.modelText, starts, total, bytes);
    ctx.lineHashes.set(sha256, hashes);
  }
  const shown = readAnchors(hashes);
  ctx.lineHashes.set(key, shown);
  return shown;
}

interface Page {
  text: string;
  /** Where the page ends in the text (its last newline excluded). */
  to: number;
  lines: number;
  cut: boolean;
}

/**
 * The lines a read returns, from line `start` on: at most `maxLines`, and no more
 * characters than `maxChars` (newlines counted), except that a single line longer
 * than that is returned cut. Works on offsets (the version's line table): the page
 * is one slice of the text, found without scanning the lines before it.
 */
function pickPage(
  text: string,
  lineStarts: Uint32Array,
  start: number,
  total: number,
  maxLines: number,
  maxChars: number,
): Page {
  const from = start - 1 < lineStarts.length ? lineStarts[start - 1]! : text.length;
  let to = from;
  let next = from;
  let lines = 0;
  let chars = 0;
  for (let i = start - 1; i < total && lines < maxLines; i++) {
    const nl = text.indexOf('\n', next);
    const end = nl === -1 ? text.length : nl;
    if (chars + (end - next) + 1 > maxChars) {
      if (lines > 0) break;
      // A single line longer than the cap: return its start rather than nothing.
      // Cut between characters, never inside a surrogate pair.
      const before = boundaryAtOrBefore(text, from + maxChars);
      const cutAt = before > from ? before : from + maxChars + 1;
      return { text: text.slice(from, cutAt), to: cutAt, lines: 1, cut: true };
    }
    chars += end - next + 1;
    lines++;
    to = end;
    next = end + 1;
  }
  return { text: text.slice(from, to), to, lines, cut: false };
}

/** How the held read's lines are carried, as recorded. */
const recordOf = (earlier: EarlierRead): Pick<EarlierRead, 'edits' | 'via' | 'lost'> => ({
  ...(earlier.edits ? { edits: earlier.edits } : {}),
  ...(earlier.via ? { via: earlier.via } : {}),
  ...(earlier.lost ? { lost: true } : {}),
});

/**
 * A hashed read's anchors are the ones in use now. A read of the whole file
 * replaces every earlier one. A page does not: the model still holds the anchors
 * an earlier read showed for the other lines, so when the file changed since that
 * read, it is kept to check them against (a twin's position anchor there can equal
 * the one this page would show for another line), with this page's anchors and
 * those given before it, each naming the line it was given for.
 */
function rememberRead(ctx: ToolContext, key: string, text: string, content: string, whole: boolean) {
  // The read held until now (for a whole read: the one this replaces).
  const held = ctx.earlierAnchors.get(key);
  const before = held?.text ?? ctx.anchors.get(key);
  const beforeIndex = held?.index;
  // A version this read met that no load recorded (the version cache skips loading): a change seen.
  observeVersion(ctx, key, text);
  const earlier = ctx.earlierAnchors.get(key);
  ctx.anchors.set(key, text);
  if (before === undefined || earlier === undefined) {
    ctx.earlierAnchors.delete(key);
    return;
  }
  let given = earlier.given;
  if (whole) {
    // This read is the one held now. The anchors given before it still name their lines
    // (a line since gone is refused, not taken for a copy this read shows elsewhere), and
    // those the read before it showed that this one does not are refused, not slipped.
    if (before !== text)
      given = given.withGone(anchorsNotShownAgain(beforeIndex ?? LineIndex.of(before), LineIndex.of(text)));
    if (given.size === 0) ctx.earlierAnchors.delete(key);
    else ctx.earlierAnchors.set(key, { text, given: given.asOlder(), edits: [] });
    return;
  }
  ctx.earlierAnchors.set(key, {
    text: earlier.text,
    given: given.with(anchorsShownIn(content, false)),
    ...(earlier.index ? { index: earlier.index } : {}),
    ...recordOf(earlier),
  });
}
