import { z } from 'zod';
import { PREVIEW_LINES } from '../approval/payloads.js';
import { loadFile, removeFile, withLock } from './file-io.js';
import { checkApprovedState } from './file-state.js';
import { countLines, firstLines } from './text-stats.js';
import { toolError } from './tool-error.js';
import type { SandboxTool } from './types.js';
import { writerApproval } from './writer.js';

export const DeleteFileInput = z.object({
  path: z.string().describe('Virtual path of the file to delete.'),
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

  needsApproval(input, ctx) {
    return writerApproval(ctx, input.path, undefined, (resolved, current) => {
      if (!current)
        throw toolError('not_found', `${resolved.virtualPath} does not exist; nothing to delete.`);
      const preview = firstLines(current.text, PREVIEW_LINES);
      return {
        type: 'delete',
        description: `Delete ${resolved.virtualPath} (${countLines(current.text)} lines, ${current.bytes} bytes)`,
        path: resolved.virtualPath,
        mount: resolved.mount.mountPoint,
        baseSha256: current.sha256,
        fileLines: countLines(current.text),
        fileBytes: current.bytes,
        preview: preview.text,
        previewTruncated: preview.truncated,
      };
    });
  },

  async execute(input, ctx) {
    const first = ctx.sandbox.resolve(input.path, 'write');
    return withLock(first, async () => {
      const resolved = ctx.sandbox.resolve(input.path, 'write');
      const current = await loadFile(ctx, resolved);
      if (!current)
        throw toolError('not_found', `${resolved.virtualPath} does not exist; nothing to delete.`);
      checkApprovedState(ctx, resolved.virtualPath, ctx.approvedBaseSha256, current);
      await removeFile(resolved);
      ctx.journal.record({
        toolName: 'delete_file',
        path: resolved.virtualPath,
        beforeSha256: current.sha256,
        afterSha256: null,
        beforeContent: Buffer.from(current.text, 'utf8'),
        beforeMode: current.mode,
      });
      return { path: resolved.virtualPath, deleted: true as const, bytes: current.bytes };
    });
  },
};
