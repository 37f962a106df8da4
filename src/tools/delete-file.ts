import { z } from 'zod';
import { PREVIEW_LINES } from '../approval/payloads.js';
import { ApprovalResult } from '../approval/types.js';
import { decodeText, type FileBytes } from '../fs/read-text.js';
import { loadBytes, removeFile, withLock } from './file-io.js';
import { checkApprovedState } from './file-state.js';
import { countLines, firstLines } from './text-stats.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool } from './types.js';
import { blockedFrom } from './writer.js';

export const DeleteFileInput = z.object({
  path: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of the file to delete.'),
});
export type DeleteFileInput = z.infer<typeof DeleteFileInput>;

export interface DeleteFileOutput {
  path: string;
  deleted: true;
  bytes: number;
}

export const deleteFile: SandboxTool<DeleteFileInput, DeleteFileOutput> = {
  name: 'delete_file',
  description:
    "Delete one file (not a directory). The user may be asked to approve; a deleted file can be restored with the toolset's undo.",
  inputSchema: DeleteFileInput,

  async needsApproval(input, ctx) {
    try {
      const resolved = ctx.sandbox.resolve(input.path, 'write');
      if (!resolved.mount.writeApproval) return ApprovalResult.preApproved();
      const current = await loadBytes(ctx, resolved);
      if (!current)
        throw toolError('not_found', `${resolved.virtualPath} does not exist; nothing to delete.`);
      const shown = previewOf(current);
      return ApprovalResult.needsApproval({
        type: 'delete',
        description: `Delete ${resolved.virtualPath} (${shown.lines === undefined ? 'binary' : `${shown.lines} lines`}, ${current.bytes} bytes)`,
        path: resolved.virtualPath,
        mount: resolved.mount.mountPoint,
        baseSha256: current.sha256,
        fileLines: shown.lines ?? 0,
        fileBytes: current.bytes,
        preview: shown.text,
        previewTruncated: shown.truncated,
      });
    } catch (error) {
      return blockedFrom(error);
    }
  },

  async execute(input, ctx) {
    const first = ctx.sandbox.resolve(input.path, 'write');
    return withLock(first, async () => {
      const resolved = ctx.sandbox.resolve(input.path, 'write');
      const current = await loadBytes(ctx, resolved);
      if (!current)
        throw toolError('not_found', `${resolved.virtualPath} does not exist; nothing to delete.`);
      checkApprovedState(ctx, resolved.virtualPath, ctx.approvedBaseSha256, current);
      await removeFile(resolved);
      ctx.journal.record({
        toolName: 'delete_file',
        path: resolved.virtualPath,
        beforeSha256: current.sha256,
        afterSha256: null,
        beforeContent: current.data,
        beforeMode: current.mode,
      });
      return { path: resolved.virtualPath, deleted: true as const, bytes: current.bytes };
    });
  },
};

/** What the user is shown of a file about to be deleted: its first lines, or a note for binary content. */
function previewOf(file: FileBytes): { lines: number | undefined; text: string; truncated: boolean } {
  let text: string;
  try {
    text = decodeText(file.data, '');
  } catch {
    return { lines: undefined, text: `(binary file, ${file.bytes} bytes: not shown)`, truncated: false };
  }
  return { lines: countLines(text), ...firstLines(text, PREVIEW_LINES) };
}
