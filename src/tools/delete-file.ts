import { z } from 'zod';
import { ApprovalResult } from '../contract/approval-types.js';
import { PREVIEW_CHARS, PREVIEW_LINES } from '../contract/payloads.js';
import { withFileLock } from '../fs/file-lock.js';
import { decodeText, type FileBytes } from '../fs/read-text.js';
import { type ResolvedLink, resolveLink } from '../sandbox/symlink.js';
import { fileTargetOf } from '../sandbox/target.js';
import { blockedFrom } from './apply-write.js';
import { loadBytes, refuseStagedLink, removeFile, withLock } from './file-io.js';
import {
  boundEntry,
  checkApprovedState,
  checkApprovedTarget,
  checkReadIdentity,
  loadingApproved,
  resolveApproved,
  resolvedField,
  throughLinks,
} from './file-state.js';
import { removeLink } from './link-io.js';
import { countLines, firstLines } from './text-stats.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool, type ToolContext } from './types.js';

export const DeleteFileInput = z.object({
  path: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of the file to delete.'),
});
export type DeleteFileInput = z.infer<typeof DeleteFileInput>;

export interface DeleteFileOutput {
  path: string;
  deleted: true;
  bytes: number;
  /** The path was a symbolic link: the link was deleted, not the file it points to. */
  symlink?: true;
}

export const deleteFile: SandboxTool<DeleteFileInput, DeleteFileOutput> = {
  name: 'delete_file',
  description:
    "Delete one file (not a directory). A symbolic link is deleted itself, never the file it points to. The user may be asked to approve; a deleted file can be restored with the toolset's undo.",
  inputSchema: DeleteFileInput,

  async needsApproval(input, ctx) {
    try {
      const link = resolveLink(ctx.sandbox, input.path, 'write');
      if (link) {
        refuseStagedLink(ctx, link.virtualPath);
        if (!link.mount.writeApproval) return ApprovalResult.preApproved();
        return ApprovalResult.needsApproval(
          {
            type: 'delete',
            description: `Delete the symbolic link ${link.virtualPath} (it points to ${link.target}); the file it points to is kept`,
            path: link.virtualPath,
            mount: link.mount.mountPoint,
            baseSha256: link.sha256,
            fileLines: 0,
            fileBytes: 0,
            preview: '',
            previewTruncated: false,
            symlink: { target: link.target },
          },
          { path: fileTargetOf(link) },
        );
      }
      const resolved = ctx.sandbox.resolve(input.path, 'write');
      if (!resolved.mount.writeApproval) return ApprovalResult.preApproved();
      const current = await loadBytes(ctx, resolved);
      if (!current)
        throw toolError('not_found', `${resolved.virtualPath} does not exist; nothing to delete.`);
      const shown = previewOf(current);
      return ApprovalResult.needsApproval(
        {
          type: 'delete',
          description: `Delete ${resolved.virtualPath} (${shown.lines === undefined ? 'binary' : `${shown.lines} lines`}, ${current.bytes} bytes)${throughLinks(resolved)}`,
          path: resolved.virtualPath,
          mount: resolved.mount.mountPoint,
          baseSha256: current.sha256,
          fileLines: shown.lines ?? 0,
          fileBytes: current.bytes,
          preview: shown.text,
          previewTruncated: shown.truncated,
          ...resolvedField(resolved),
        },
        { path: fileTargetOf(resolved) },
      );
    } catch (error) {
      return blockedFrom(error);
    }
  },

  async execute(input, ctx) {
    const link = resolveLink(ctx.sandbox, input.path, 'write');
    if (link) refuseStagedLink(ctx, link.virtualPath);
    if (link) return deleteLink(ctx, input.path, link);
    const first = resolveApproved(ctx, 'path', input.path, 'write');
    return withLock(first, async () => {
      const resolved = resolveApproved(ctx, 'path', input.path, 'write');
      checkApprovedTarget(ctx, 'path', resolved);
      const current = await loadingApproved(ctx, 'path', resolved, () => loadBytes(ctx, resolved));
      if (!current)
        throw toolError('not_found', `${resolved.virtualPath} does not exist; nothing to delete.`);
      checkReadIdentity(ctx, 'path', resolved.virtualPath, current);
      checkApprovedState(ctx, resolved.virtualPath, ctx.approvedBaseSha256, current);
      // Became a link after the check above: never delete through it.
      if (resolveLink(ctx.sandbox, input.path, 'write'))
        throw toolError(
          'stale_approval',
          `${resolved.virtualPath} changed while it was being deleted; nothing was deleted.`,
        );
      await removeFile(resolved, boundEntry(ctx, 'path'), ctx);
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

/** rm of a link: the link goes, the file it points to stays. */
async function deleteLink(ctx: ToolContext, path: string, first: ResolvedLink): Promise<DeleteFileOutput> {
  return withFileLock(first.hostPath, async () => {
    const link = resolveLink(ctx.sandbox, path, 'write');
    if (link) checkApprovedTarget(ctx, 'path', link);
    checkApprovedState(ctx, first.virtualPath, ctx.approvedBaseSha256, link ?? { sha256: 'not a link' });
    await removeLink(link!, boundEntry(ctx, 'path'));
    ctx.journal.record({
      toolName: 'delete_file',
      path: link!.virtualPath,
      beforeSha256: link!.sha256,
      afterSha256: null,
      beforeLink: link!.linkText,
    });
    return { path: link!.virtualPath, deleted: true as const, bytes: 0, symlink: true };
  });
}

/** What the user is shown of a file about to be deleted: its first lines, or a note for binary content. */
function previewOf(file: FileBytes): { lines: number | undefined; text: string; truncated: boolean } {
  let text: string;
  try {
    text = decodeText(file.data, '');
  } catch {
    return { lines: undefined, text: `(binary file, ${file.bytes} bytes: not shown)`, truncated: false };
  }
  return { lines: countLines(text), ...firstLines(text, PREVIEW_LINES, PREVIEW_CHARS) };
}
