import path from 'node:path';
import { SandboxError } from '../contract/errors.js';
import type { Mount } from './config.js';
import { isInsideRoot } from './real-path.js';
import { closestNames, listDirectoryNames } from './suggestions.js';

/**
 * not_found for a virtual path, suggesting the closest existing names in its
 * parent directory (mount points included), at most 3, as virtual paths.
 */
export function notFoundError(
  vp: string,
  mount: Mount,
  hostPath: string,
  mounts: readonly Mount[],
): SandboxError {
  const parentVirtual = path.posix.dirname(vp);
  const wanted = path.posix.basename(vp);
  let names = listDirectoryNames(path.dirname(hostPath));
  if (parentVirtual === '/' || !isInsideRoot(mount.realRoot, path.dirname(hostPath))) names = [];
  const mountNames = mounts
    .filter((m) => m.mountPoint !== '/' && path.posix.dirname(m.mountPoint) === parentVirtual)
    .map((m) => path.posix.basename(m.mountPoint));
  if (parentVirtual === '/' && mount.mountPoint === '/') names = listDirectoryNames(mount.realRoot);
  const suggestions = closestNames(wanted, [...names, ...mountNames]).map((n) =>
    parentVirtual === '/' ? `/${n}` : `${parentVirtual}/${n}`,
  );
  const hint = suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : '';
  return new SandboxError('not_found', `${vp} does not exist.${hint}`, { suggestions });
}
