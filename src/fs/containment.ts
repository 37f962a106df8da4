import fs from 'node:fs';
import { isInsideRoot } from '../sandbox/real-path.js';
import { FsError } from './fs-error.js';

/**
 * Where an open file descriptor really points. On Linux /proc/self/fd tells us
 * without a path lookup, so a symlink swapped in after the sandbox check is seen.
 * Synchronous, like the other metadata calls (see sync-metadata.ts).
 */
export async function realPathOfFd(fd: number, fallbackPath: string): Promise<string> {
  if (process.platform === 'linux') {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // /proc not mounted: fall back to a path-based check below.
    }
  }
  return fs.realpathSync(fallbackPath);
}

export async function assertFdInside(
  fd: number,
  hostPath: string,
  realRoot: string,
  displayPath: string,
): Promise<void> {
  const real = await realPathOfFd(fd, hostPath);
  if (!isInsideRoot(realRoot, real)) {
    throw new FsError(
      'path_not_in_sandbox',
      `${displayPath} now leads outside the sandbox (it changed while in use); nothing was done.`,
    );
  }
}

/** Node's errno for "that is not a regular file or a directory we can use". */
export function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
