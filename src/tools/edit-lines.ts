import { z } from 'zod';
import type { LinesEditPayload } from '../contract/payloads.js';
import { type AutoCorrection, applyLineEdits } from '../edit/apply-line-edits.js';
import { boundedUnifiedDiff, checkedChanges } from '../edit/bounded-diff.js';
import { diffForModel } from '../edit/diff-for-model.js';
import { anchorsShownIn, GivenAnchors } from '../edit/given-anchors.js';
import { type LineEditOp, LineEditOpSchema } from '../edit/line-edit-ops.js';
import { shownAnchorsKey } from '../edit/line-hash-cache.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { shareField } from '../text/lazy-string.js';
import { applyWrite, writerApproval } from './apply-write.js';
import { checkWriteSize, type LoadedFile } from './file-io.js';
import { anchorsState, checkApprovedAnchors } from './file-state.js';
import { observeVersion, withOwnEdit } from './shown-versions.js';
import { countLines } from './text-stats.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool, type ToolContext } from './types.js';

export const EditLinesInput = z
  .object({
    path: z.string().min(1, NONEMPTY_PATH).optional().describe('Virtual path of the file to edit.'),
    file_path: z.string().optional().describe('Deprecated alias of `path`.'),
    operations: z
      .array(LineEditOpSchema)
      .min(1)
      .describe('Edits to apply atomically, all against the same read.'),
    sanity: z
      .enum(['reject', 'warn', 'off'])
      .optional()
      .describe(
        'What to do when the result looks broken (bracket balance, duplicated lines). Default reject.',
      ),
  })
  .refine((v) => v.path !== undefined || v.file_path !== undefined, {
    message: 'path is required',
    path: ['path'],
  });
export type EditLinesInput = z.infer<typeof EditLinesInput>;

export interface EditLinesOutput {
  path: string;
  message: string;
  ops_applied: number;
  lines_before: number;
  lines_after: number;
  net_line_change: number;
  anchors_valid_through: number;
  must_refresh_from_line: number;
  diff: string;
  auto_corrections: AutoCorrection[];
  warnings: string[];
  baseline_continuity: 'clean' | 'mixed';
  writer_type: 'edit';
  version: number;
  sha256: string;
}

const DESCRIPTION = `Edit a file by line anchors from read_file(path, hashes: true), which shows each line as \`LINE#HASH|content\`.
The HASH is the line's authoritative identity; the line number is advisory (a snapshot position) only.
Operations (all in one call are applied atomically against the same snapshot; any bad operation rejects the whole batch and changes nothing):
| Situation | Operation |
| Change one line with unique content | replace_line {hash, content} |
| Change a contiguous block | replace_range {start_hash, end_hash, content} |
| Insert between existing lines | insert_after / insert_before {hash, content} |
| Remove one unique line | delete_line {hash} |
| Remove a block | delete_range {start_hash, end_hash} |
| Target line is repetitive (blank, "}", boilerplate) | replace_range with unique neighbour anchors |
Single-anchor operations use \`hash\`; range operations use \`start_hash\` + \`end_hash\`; mixing them is a validation error.
\`content\` is text and may span several lines: a trailing newline ends the last line (it adds no empty line), so to write a final blank line end with "\\n\\n"; "" replaces with one empty line.
Pass anchors as the whole \`LINE#HASH\` you were shown: while the file is unchanged since that read, it names exactly that line, even a blank line, a lone brace or a repeated line. A hash held by one line only is followed even if the line number is wrong (reported in auto_corrections). If the file changed since the read, the line you read is followed to where it is now (anchor_stale if it was edited or deleted), but a blank line or lone brace that moved, or a repeated line whose surroundings changed, is refused: anchor on distinctive lines then. When a hash matches several lines, add \`occurrence\` (1-based) and \`line\` together.
Apply edits right after reading: read A → edit A → read B → edit B, never read A → read B → edit A. If the file changed you get anchor_stale: re-read with hashes. After an edit, anchors from line must_refresh_from_line on are stale; use the fresh anchors in the returned diff or re-read. One file per call; use \`path\` (\`file_path\` is deprecated).`;

function targetPath(input: EditLinesInput): { path: string; warnings: string[] } {
  if (input.path !== undefined) return { path: input.path, warnings: [] };
  return { path: input.file_path!, warnings: ['file_path is deprecated; use path instead.'] };
}

function computeLines(
  ctx: ToolContext,
  resolved: ResolvedPath,
  file: LoadedFile | undefined,
  input: EditLinesInput,
) {
  const { virtualPath } = resolved;
  if (!file) throw toolError('not_found', `${virtualPath} does not exist; create it with write_file.`);
  // What was shown is remembered per file (its real path): any spelling of it, links included.
  const snapshot = ctx.anchors.get(resolved.hostPath);
  const earlier = ctx.earlierAnchors.get(resolved.hostPath);
  const hashes = ctx.lineHashes.get(file.sha256);
  const shown = ctx.lineHashes.get(shownAnchorsKey(file.sha256));
  const result = applyLineEdits(file.text, input.operations as LineEditOp[], {
    sanity: input.sanity ?? 'reject',
    ...(snapshot === undefined ? {} : { snapshot }),
    ...(earlier === undefined ? {} : { earlier }),
    ...(hashes === undefined ? {} : { hashes }),
    ...(shown === undefined ? {} : { shown }),
  });
  if (!result.ok) {
    throw toolError(
      result.code,
      `${virtualPath}: ${result.message}`,
      result.details ? { details: result.details } : {},
    );
  }
  ctx.lineHashes.set(file.sha256, result.lineHashes.before);
  return result;
}

function summarize(op: LineEditOp): string {
  const o = op as Record<string, unknown>;
  const anchor = o.hash ?? `${String(o.start_hash)}..${String(o.end_hash)}`;
  return `${String(o.op)} ${String(anchor)}${o.line ? ` (line ${String(o.line)})` : ''}`;
}

export const editLines: SandboxTool<EditLinesInput, EditLinesOutput> = {
  name: 'edit_lines',
  description: DESCRIPTION,
  inputSchema: EditLinesInput as unknown as z.ZodType<EditLinesInput>,

  needsApproval(input, ctx: ToolContext) {
    const { path } = targetPath(input);
    return writerApproval(ctx, path, undefined, (resolved, current) => {
      const result = computeLines(ctx, resolved, current, input);
      checkWriteSize(ctx, resolved, result.newText);
      const diff = boundedUnifiedDiff(current!.text, result.newText, {
        oldPath: resolved.virtualPath,
        newPath: resolved.virtualPath,
        timeBudgetMs: ctx.limits.diffTimeBudgetMs,
        known: checkedChanges(current!.text, result.splice, result.changes, result.headLines) ?? {
          head: result.splice.head,
          tail: result.splice.tail,
        },
        splice: result.splice,
      });
      const payload: LinesEditPayload = {
        type: 'lines',
        description: `Edit ${resolved.virtualPath}: ${input.operations.length} line operation${input.operations.length === 1 ? '' : 's'} (+${diff.added} −${diff.removed})`,
        path: resolved.virtualPath,
        mount: resolved.mount.mountPoint,
        baseSha256: current!.sha256,
        unifiedDiff: '',
        diffLines: diff.diffLines,
        added: diff.added,
        removed: diff.removed,
        diffCoarse: diff.coarse,
        operations: input.operations.length,
        summary: (input.operations as LineEditOp[]).map(summarize),
        anchorsSha256: anchorsState(ctx, resolved.hostPath),
        fileLines: countLines(current!.text),
        fileBytes: current!.bytes,
      };
      // Written out only when someone reads it (see lazy-string.ts).
      return shareField(payload, 'unifiedDiff', diff);
    });
  },

  async execute(input, ctx) {
    const { path, warnings } = targetPath(input);
    let started: string | undefined;
    const out = await applyWrite(ctx, 'edit_lines', path, undefined, (current, resolved) => {
      checkApprovedAnchors(ctx, resolved, current);
      const result = computeLines(ctx, resolved, current, input);
      started = current?.text;
      return { newText: result.newText, splice: result.splice, result, recordsAnchors: true };
    });
    const r = out.plan.result;
    const diff = diffForModel(r.diff, ctx.limits.readMaxChars);
    // The read's anchors stay in the model's hands after this call: keep that read (the
    // first since the read, not this result) to resolve them against, and every anchor
    // given since with the line it was given for, carried to this result, plus the ones
    // this result shows the model (its diff as returned).
    const key = out.resolved.hostPath;
    // The version this call started from, if no load recorded it (staged content): a change seen.
    if (started !== undefined) observeVersion(ctx, key, started);
    const held = ctx.earlierAnchors.get(key);
    const previous = held?.text ?? ctx.anchors.get(key);
    if (previous !== undefined) {
      ctx.earlierAnchors.set(key, {
        text: previous,
        given: (held?.given ?? GivenAnchors.none).throughEdit(r.lineSplices).with(anchorsShownIn(diff, true)),
        ...(held?.index ? { index: held.index } : {}),
        ...(held ? withOwnEdit(held, r.lineSplices) : { edits: [r.lineSplices] }),
      });
    }
    ctx.anchors.set(key, out.plan.newText);
    ctx.lineHashes.set(out.state.sha256, r.lineHashes.after);
    ctx.lineHashes.set(shownAnchorsKey(out.state.sha256), r.lineHashes.shownAfter);
    const continuity = ctx.writers.continuity(out.resolved.virtualPath, 'edit_lines');
    return {
      path: out.resolved.virtualPath,
      message: `${r.opsApplied} operation${r.opsApplied === 1 ? '' : 's'} applied to ${out.resolved.virtualPath}.`,
      ops_applied: r.opsApplied,
      lines_before: r.linesBefore,
      lines_after: r.linesAfter,
      net_line_change: r.linesAfter - r.linesBefore,
      anchors_valid_through: r.anchorsValidThrough,
      must_refresh_from_line: r.mustRefreshFromLine,
      diff,
      auto_corrections: r.autoCorrections,
      warnings: [...warnings, ...r.warnings],
      baseline_continuity: continuity,
      writer_type: 'edit',
      version: out.state.version,
      sha256: out.state.sha256,
    };
  },
};
