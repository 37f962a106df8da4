import { z } from 'zod';
import { PREVIEW_CHARS, PREVIEW_LINES, type WritePayload } from '../contract/payloads.js';
import { boundedUnifiedDiff } from '../edit/bounded-diff.js';
import { shareField } from '../text/lazy-string.js';
import { applyWrite, writerApproval } from './apply-write.js';
import { checkWriteSize, type LoadedFile } from './file-io.js';
import { byteLength, countLines, firstLines } from './text-stats.js';
import { NONEMPTY_PATH, type SandboxTool, type ToolContext } from './types.js';

export const WriteFileInput = z.object({
  path: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of the file to create or overwrite.'),
  content: z.string().describe('The complete new content of the file.'),
  base_sha256: z
    .string()
    .optional()
    .describe('sha256 from your last read of this file; the write is refused if the file changed since.'),
});
export type WriteFileInput = z.infer<typeof WriteFileInput>;

export interface WriteFileOutput {
  path: string;
  version: number;
  sha256: string;
  bytes: number;
  lines: number;
  created: boolean;
}

/** Builds the write payload; exported so the approval layer can re-diff edited content. */
function buildWritePayload(
  ctx: ToolContext,
  virtualPath: string,
  mount: string,
  content: string,
  current: LoadedFile | undefined,
): WritePayload {
  const lines = countLines(content);
  const existingLines = current ? countLines(current.text) : null;
  const bytes = byteLength(content);
  const preview = firstLines(content, PREVIEW_LINES, PREVIEW_CHARS);
  const payload: WritePayload = {
    type: 'write',
    description: current
      ? `Overwrite ${virtualPath} (${existingLines} → ${lines} lines)`
      : `Create ${virtualPath} (${lines} lines, ${bytes} bytes)`,
    path: virtualPath,
    mount,
    baseSha256: current?.sha256 ?? null,
    content,
    contentLines: lines,
    contentBytes: bytes,
    preview: preview.text,
    previewTruncated: preview.truncated,
    fileExists: current !== undefined,
    existingLines,
    existingBytes: current ? current.bytes : null,
  };
  if (current) {
    const diff = boundedUnifiedDiff(current.text, content, {
      oldPath: virtualPath,
      newPath: virtualPath,
      timeBudgetMs: ctx.limits.diffTimeBudgetMs,
    });
    Object.assign(payload, {
      unifiedDiff: '',
      diffLines: diff.diffLines,
      added: diff.added,
      removed: diff.removed,
      diffCoarse: diff.coarse,
    });
    // Written out only when someone reads it (see lazy-string.ts).
    shareField(payload, 'unifiedDiff', diff);
  }
  return payload;
}

export const writeFile: SandboxTool<WriteFileInput, WriteFileOutput> = {
  name: 'write_file',
  description: [
    "Create a file, or replace a file's entire content. Parent directories are created as needed.",
    'For changes to part of an existing file prefer edit_file, patch_file or edit_lines: they are smaller and easier to review.',
    'When overwriting, pass `base_sha256` from your last read so a file that changed meanwhile is not clobbered (you get `state_mismatch` with the latest state instead).',
    'The user may be asked to approve the write; a denial comes back with their note.',
  ].join(' '),
  inputSchema: WriteFileInput,

  needsApproval(input, ctx) {
    return writerApproval(ctx, input.path, input.base_sha256, (resolved, current) => {
      // Too large is known before asking: the user is not shown a write that cannot happen.
      checkWriteSize(ctx, resolved, byteLength(input.content));
      return buildWritePayload(ctx, resolved.virtualPath, resolved.mount.mountPoint, input.content, current);
    });
  },

  async execute(input, ctx) {
    const out = await applyWrite(ctx, 'write_file', input.path, input.base_sha256, () => ({
      newText: input.content,
    }));
    return {
      path: out.resolved.virtualPath,
      version: out.state.version,
      sha256: out.state.sha256,
      bytes: out.bytes,
      lines: countLines(input.content),
      created: out.before === undefined,
    };
  },
};
