import { withFileLock, withFileLocks } from '../fs/file-lock.js';
import { resolveLink } from '../sandbox/symlink.js';
import { loadBytes, removeFile, saveFile } from './file-io.js';
import { createLink, moveLink, removeLink } from './link-io.js';
import { toolError } from './tool-error.js';
import type { ToolContext } from './types.js';

export interface UndoOutput {
  undone: { id: number; toolName: string; path: string; fromPath?: string };
  message: string;
}

/**
 * Reverts the most recent journalled change, but only if the file still has the
 * state that change produced: undo must never clobber a later edit.
 */
export async function undoLastChange(ctx: ToolContext): Promise<UndoOutput> {
  const last = ctx.journal.last();
  if (!last) throw toolError('invalid_argument', 'There is nothing to undo.');
  if (last.afterLink !== undefined) return undoLinkTransfer(ctx, last);
  const target = ctx.sandbox.resolve(last.path, 'write');
  // A move is put back under both names' locks (in a fixed order, as transfers take them):
  // the source name must stay free until the content is back there.
  const from = last.fromPath === undefined ? undefined : ctx.sandbox.resolve(last.fromPath, 'write');
  return withFileLocks(from ? [target.hostPath, from.hostPath] : [target.hostPath], async () => {
    const resolved = ctx.sandbox.resolve(last.path, 'write');
    const current = await loadBytes(ctx, resolved);
    if ((current?.sha256 ?? null) !== last.afterSha256) {
      throw toolError(
        'state_mismatch',
        `Cannot undo ${last.toolName} on ${last.path}: the file has changed since (it no longer has the content that change wrote).`,
      );
    }
    if (last.beforeLink !== undefined) {
      // A deleted symbolic link: put the link back (its target was never touched).
      await createLink(last.beforeLink, resolved, false);
      ctx.journal.remove(last.id);
      return {
        undone: { id: last.id, toolName: last.toolName, path: last.path },
        message: `Undid ${last.toolName} on ${last.path} (the symbolic link is back).`,
      };
    }
    if (last.beforeSha256 !== null && last.beforeContent === undefined) {
      throw toolError(
        'invalid_argument',
        `Cannot undo ${last.toolName} on ${last.path}: its previous content was not kept (journal byte budget).`,
      );
    }
    if (last.fromPath) {
      // A move: put the content back at the source, then restore or remove the destination.
      const source = ctx.sandbox.resolve(last.fromPath, 'write');
      if (source.kind !== 'missing') {
        throw toolError('state_mismatch', `Cannot undo the move: ${last.fromPath} exists again.`);
      }
      // Created only where the name is still free (checked again right before the rename).
      await saveFile(ctx, source, current!.data, current!.mode, {
        parent: undefined,
        entry: null,
        path: last.fromPath,
      });
      ctx.state.record(source.virtualPath, current!.sha256);
    }
    if (last.beforeSha256 === null) {
      if (current) await removeFile(resolved);
    } else {
      await saveFile(ctx, resolved, last.beforeContent!, last.beforeMode);
      ctx.state.record(resolved.virtualPath, last.beforeSha256);
    }
    ctx.journal.remove(last.id);
    return {
      undone: {
        id: last.id,
        toolName: last.toolName,
        path: last.path,
        ...(last.fromPath ? { fromPath: last.fromPath } : {}),
      },
      message: `Undid ${last.toolName} on ${last.fromPath ? `${last.fromPath} → ` : ''}${last.path}.`,
    };
  });
}

type LastChange = NonNullable<ReturnType<ToolContext['journal']['last']>>;

/** Undoes a moved or copied symbolic link: the link goes back (or away), an overwritten file comes back. */
async function undoLinkTransfer(ctx: ToolContext, last: LastChange): Promise<UndoOutput> {
  const first = resolveLink(ctx.sandbox, last.path, 'write');
  return withFileLock(first?.hostPath ?? `missing\0${last.path}`, async () => {
    const link = resolveLink(ctx.sandbox, last.path, 'write');
    if (!link || link.linkText !== last.afterLink)
      throw toolError(
        'state_mismatch',
        `Cannot undo ${last.toolName} on ${last.path}: the link has changed since.`,
      );
    if (last.beforeSha256 !== null && last.beforeContent === undefined)
      throw toolError(
        'invalid_argument',
        `Cannot undo ${last.toolName} on ${last.path}: the file it replaced was not kept (journal byte budget).`,
      );
    if (last.fromPath) {
      const source = ctx.sandbox.resolve(last.fromPath, 'write');
      if (source.kind !== 'missing' || resolveLink(ctx.sandbox, last.fromPath, 'write'))
        throw toolError('state_mismatch', `Cannot undo the move: ${last.fromPath} exists again.`);
      await moveLink(link, source, false);
    } else await removeLink(link);
    if (last.beforeContent !== undefined) {
      const dest = ctx.sandbox.resolve(last.path, 'write');
      await saveFile(ctx, dest, last.beforeContent, last.beforeMode);
      ctx.state.record(dest.virtualPath, last.beforeSha256!);
    }
    ctx.journal.remove(last.id);
    const { id, toolName, path, fromPath } = last;
    return {
      undone: { id, toolName, path, ...(fromPath ? { fromPath } : {}) },
      message: `Undid ${toolName} of the symbolic link ${fromPath ? `${fromPath} → ` : ''}${path}.`,
    };
  });
}
