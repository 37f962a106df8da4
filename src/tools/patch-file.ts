import { z } from 'zod';
import type { PatchPayload } from '../contract/payloads.js';
import { boundedUnifiedDiff } from '../edit/bounded-diff.js';
import { fixUnifiedDiff } from '../edit/fix-unified-diff.js';
import { BriefMemo } from '../fs/brief-memo.js';
import { shareField } from '../text/lazy-string.js';
import { applyWrite, writerApproval } from './apply-write.js';
import { checkWriteSize, type LoadedFile } from './file-io.js';
import { EMPTY_SHA256, type LatestFileState, latestState } from './file-state.js';
import { countLines } from './text-stats.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool, type ToolContext } from './types.js';

export const PatchFileInput = z.object({
  path: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of the file to patch (or to create).'),
  unified_diff: z.string().describe('A unified diff of the change (@@ hunks with context, - and + lines).'),
  base_sha256: z
    .string()
    .describe(
      `sha256 of the file content the diff is based on (from read_file; ${EMPTY_SHA256.slice(0, 8)}… = empty, to create a file).`,
    ),
});
export type PatchFileInput = z.infer<typeof PatchFileInput>;

export interface PatchFileOutput {
  success: true;
  message: string;
  path: string;
  relocated: boolean;
  hunks: number;
  latest_file_state: LatestFileState;
}

type FixedPatch = Extract<ReturnType<typeof fixUnifiedDiff>, { ok: true }>;

/**
 * The patch computed last, for the execute that usually follows its approval: the
 * result is a function of the file's content (its SHA-256) and the diff, so it is
 * taken again when both are the same (a one-entry memo kept 30 s, as edit_file's).
 */
const lastPatch = new BriefMemo<FixedPatch>();

/** Fixes and applies the diff in memory; an unusable diff becomes `invalid_diff` carrying the unchanged state. */
function computePatch(ctx: ToolContext, virtualPath: string, file: LoadedFile | undefined, diff: string) {
  // A person's own diff (their edited call) lands as they wrote it: nothing re-indented.
  const verbatim = ctx.verbatim ?? false;
  // A file the model may not read unasked is never shown in a failure (only its line numbers).
  const reveal = !ctx.sandbox.needsReadApproval(virtualPath);
  const key = [file?.sha256, diff, verbatim, reveal];
  const known = lastPatch.get(key);
  if (known) return known;
  const result = fixUnifiedDiff(file?.text ?? '', diff, undefined, undefined, verbatim, reveal);
  if (!result.ok) {
    throw toolError('invalid_diff', `${virtualPath}: ${result.message}`, {
      details: { ...(result.details ?? {}), latest_file_state: latestState(ctx, virtualPath, file) },
    });
  }
  lastPatch.set(key, result);
  return result;
}

export const patchFile: SandboxTool<PatchFileInput, PatchFileOutput> = {
  name: 'patch_file',
  description: [
    'Apply a unified diff to one file, guarded by the hash of the content it was written against.',
    'Workflow: use the content and `sha256` of the newest read_file/patch_file result for this file (highest `version`); write a unified diff against exactly that content; pass that sha256 as `base_sha256`.',
    'If the file changed, nothing is applied and you get `state_mismatch` with `latest_file_state` (its new sha256 and content): redo the diff against it.',
    'Hunk line numbers may be approximate: each hunk is located by its context and `-` lines (tolerating whitespace and indentation drift), but an ambiguous or missing location is refused with `invalid_diff` naming the hunk — never guessed.',
    'Several hunks in one call are applied atomically. To create a file, use the empty-content hash e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 and a diff of only `+` lines.',
    'Every result carries `latest_file_state`: use it for your next change instead of re-reading.',
  ].join(' '),
  inputSchema: PatchFileInput,

  needsApproval(input, ctx) {
    return writerApproval(ctx, input.path, input.base_sha256, (resolved, current) => {
      const fixed = computePatch(ctx, resolved.virtualPath, current, input.unified_diff);
      checkWriteSize(ctx, resolved, fixed.newText);
      const diff = boundedUnifiedDiff(current?.text ?? '', fixed.newText, {
        oldPath: resolved.virtualPath,
        newPath: resolved.virtualPath,
        timeBudgetMs: ctx.limits.diffTimeBudgetMs,
        known: fixed.unchanged,
        splice: fixed.splice,
      });
      const payload: PatchPayload = {
        type: 'patch',
        description: `Patch ${resolved.virtualPath}: ${fixed.hunks.length} hunk${fixed.hunks.length === 1 ? '' : 's'} (+${diff.added} −${diff.removed})${fixed.relocated ? ', relocated' : ''}`,
        path: resolved.virtualPath,
        mount: resolved.mount.mountPoint,
        baseSha256: current?.sha256 ?? null,
        unifiedDiff: '',
        diffLines: diff.diffLines,
        added: diff.added,
        removed: diff.removed,
        diffCoarse: diff.coarse,
        requestedDiff: input.unified_diff,
        relocated: fixed.relocated,
        hunks: fixed.hunks.length,
        fileExists: current !== undefined,
        fileLines: current ? countLines(current.text) : 0,
        fileBytes: current?.bytes ?? 0,
      };
      // Written out only when someone reads it (see lazy-string.ts).
      return shareField(payload, 'unifiedDiff', diff);
    });
  },

  async execute(input, ctx) {
    const out = await applyWrite(ctx, 'patch_file', input.path, input.base_sha256, (current, resolved) => {
      const fixed = computePatch(ctx, resolved.virtualPath, current, input.unified_diff);
      return { newText: fixed.newText, splice: fixed.splice, fixed };
    });
    const { fixed } = out.plan;
    const after = { text: out.plan.newText, bytes: out.bytes, sha256: out.state.sha256, mode: 0 };
    const state = latestState(ctx, out.resolved.virtualPath, after);
    return {
      success: true,
      message: `Patch applied to ${out.resolved.virtualPath} (${fixed.hunks.length} hunk${fixed.hunks.length === 1 ? '' : 's'}${fixed.relocated ? ', some relocated to where their context actually is' : ''}).`,
      path: out.resolved.virtualPath,
      relocated: fixed.relocated,
      hunks: fixed.hunks.length,
      latest_file_state: state,
    };
  },
};
