import { SandboxError } from '../contract/errors.js';
import { notFoundError } from '../sandbox/not-found.js';
import type { AccessKind, EntryKind, ResolvedPath, Sandbox } from '../sandbox/sandbox.js';
import type { StagingOverlay } from './overlay.js';

/**
 * The sandbox as the staged tools see it: the same mounts, permissions and
 * identity, but a path's kind (file, directory, missing) and size come from the
 * overlay where something is staged. Unstaged paths resolve exactly as before
 * (one extra map lookup), so staged reads cost what direct reads cost.
 */
export function stagedSandbox(base: Sandbox, overlay: StagingOverlay): Sandbox {
  const view = Object.create(base) as Sandbox;
  view.resolve = (virtualPath: string, access: AccessKind): ResolvedPath => {
    let resolved: ResolvedPath;
    try {
      resolved = base.resolve(virtualPath, access);
    } catch (error) {
      if (overlay.size === 0 || !(error instanceof SandboxError)) throw error;
      if (error.code !== 'not_found' && error.code !== 'not_a_file') throw error;
      let listed: ResolvedPath;
      try {
        // Staged paths were written, so they resolve for writing even where nothing is on disk.
        listed = base.resolve(virtualPath, 'write');
      } catch {
        throw error;
      }
      if (overlay.file(listed.hostPath) === undefined && !overlay.isDirectory(listed.hostPath)) throw error;
      return adjust(base, overlay, listed, access);
    }
    if (overlay.size === 0) return resolved;
    if (overlay.file(resolved.hostPath) === undefined && !overlay.isDirectory(resolved.hostPath))
      return resolved;
    return adjust(base, overlay, resolved, access);
  };
  return view;
}

function adjust(
  base: Sandbox,
  overlay: StagingOverlay,
  resolved: ResolvedPath,
  access: AccessKind,
): ResolvedPath {
  const vp = resolved.virtualPath;
  const staged = overlay.file(resolved.hostPath);
  let kind: EntryKind = resolved.kind;
  if (overlay.isDirectory(resolved.hostPath)) kind = 'directory';
  else if (staged === null) kind = 'missing';
  else if (staged) kind = 'file';
  if (access !== 'list' && kind === 'directory')
    throw new SandboxError(
      'not_a_file',
      `${vp} is a directory, not a file. Use list_files to see its contents.`,
    );
  if ((access === 'read' || access === 'list') && kind === 'missing')
    throw notFoundError(vp, resolved.mount, resolved.hostPath, base.mounts);
  if (access !== 'list') base.checkSuffix(vp);
  const { size: _size, ...rest } = resolved;
  return { ...rest, kind, ...(staged ? { size: staged.data.length } : {}) };
}
