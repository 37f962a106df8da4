import fs, { constants } from 'node:fs';
import path from 'node:path';
import { isInsideRoot } from '../sandbox/real-path.js';
import { errnoOf, realPathOfFd } from './containment.js';
import { closeFd, syncFd, syncFdNow } from './fd-io.js';
import { FsError } from './fs-error.js';

const USE_PROC = process.platform === 'linux';
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

/**
 * An open, verified directory inside a mount. Node has no openat(2), but on
 * Linux `/proc/self/fd/<fd>/<name>` resolves through the directory we hold, so
 * creating, renaming or unlinking `name` there cannot be redirected by a
 * directory swapped for a symlink after the check. Elsewhere the verified real
 * path is used (a narrower, best-effort guarantee). Metadata calls are
 * synchronous (see fd-io.ts); only fsync waits off the event loop.
 */
export class DirHandle {
  private constructor(
    private readonly fd: number,
    /** Real path of the directory, verified inside the mount when opened. */
    readonly realPath: string,
  ) {}

  private closed = false;

  static async open(dir: string, realRoot: string, displayPath: string): Promise<DirHandle> {
    return DirHandle.adopt(fs.openSync(dir, DIR_FLAGS), dir, realRoot, displayPath);
  }

  private static async adopt(
    fd: number,
    dir: string,
    realRoot: string,
    displayPath: string,
  ): Promise<DirHandle> {
    const real = await realPathOfFd(fd, dir).catch((error) => {
      closeFd(fd);
      throw error;
    });
    if (!isInsideRoot(realRoot, real)) {
      closeFd(fd);
      throw new FsError(
        'path_not_in_sandbox',
        `A directory on the way to ${displayPath} leads outside the sandbox; nothing was done.`,
      );
    }
    return new DirHandle(fd, real);
  }

  /** A path for `name` inside this directory that syscalls resolve through the held fd. */
  child(name: string): string {
    if (name.includes('/') || name === '..' || name === '.' || name === '')
      throw new Error(`not a plain name: ${name}`);
    if (this.closed) throw new Error('directory handle used after close');
    return USE_PROC ? `/proc/self/fd/${this.fd}/${name}` : path.join(this.realPath, name);
  }

  /** Opens (creating if asked) the subdirectory `name`, refusing links that lead outside. */
  async subdirectory(
    name: string,
    realRoot: string,
    options: { create: boolean; displayPath: string },
  ): Promise<DirHandle> {
    const p = this.child(name);
    try {
      return await DirHandle.adopt(
        fs.openSync(p, DIR_FLAGS | constants.O_NOFOLLOW),
        path.join(this.realPath, name),
        realRoot,
        options.displayPath,
      );
    } catch (error) {
      if (error instanceof FsError) throw error;
      const code = errnoOf(error);
      if (code === 'ENOENT') {
        if (!options.create)
          throw new FsError('not_found', `The parent directory of ${options.displayPath} does not exist.`);
        try {
          fs.mkdirSync(p);
        } catch (e) {
          if (errnoOf(e) !== 'EEXIST') throw e;
        }
        return this.subdirectory(name, realRoot, { ...options, create: false });
      }
      if (code !== 'ENOTDIR' && code !== 'ELOOP') throw error;
      const stat = fs.lstatSync(p);
      if (!stat.isSymbolicLink())
        throw new FsError('not_a_file', `A parent of ${options.displayPath} is a file, not a directory.`);
      // A symlinked directory: allowed only when its real target is a directory inside the mount.
      const real = realPathOrUndefined(p);
      if (!real || !isInsideRoot(realRoot, real)) {
        throw new FsError(
          'path_not_in_sandbox',
          `A directory on the way to ${options.displayPath} leads outside the sandbox.`,
        );
      }
      return DirHandle.open(real, realRoot, options.displayPath);
    }
  }

  /** `dev:ino` of the directory held (not of whatever its path names now). */
  async identity(): Promise<string> {
    const stat = fs.fstatSync(this.fd, { bigint: true });
    return `${stat.dev}:${stat.ino}`;
  }

  /** Names of the entries of this directory, listed through the held fd. */
  async entries(): Promise<string[]> {
    return fs.promises.readdir(USE_PROC ? `/proc/self/fd/${this.fd}` : this.realPath);
  }

  /** fsync of the directory; `now`: on this thread (see syncFdNow). */
  async sync(now = false): Promise<void> {
    try {
      if (now) syncFdNow(this.fd);
      else await syncFd(this.fd);
    } catch {
      // unsupported on some file systems; data is synced already
    }
  }

  async close(): Promise<void> {
    // A raw descriptor number is reused once closed: closing twice could close someone else's file.
    if (this.closed) return;
    this.closed = true;
    closeFd(this.fd);
  }
}

function realPathOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Opens `dir` (which must lie inside `realRoot`) one component at a time from the
 * mount root, creating missing levels when asked; every level is verified.
 */
export async function openDirectoryInside(
  dir: string,
  realRoot: string,
  options: { create: boolean; displayPath: string },
): Promise<DirHandle> {
  if (!isInsideRoot(realRoot, dir)) {
    throw new FsError('path_not_in_sandbox', `${options.displayPath} is outside the sandbox.`);
  }
  let current = await DirHandle.open(realRoot, realRoot, options.displayPath);
  const rel = path.relative(realRoot, dir);
  for (const segment of rel === '' ? [] : rel.split(path.sep)) {
    try {
      const next = await current.subdirectory(segment, realRoot, options);
      await current.close();
      current = next;
    } catch (error) {
      await current.close();
      throw error;
    }
  }
  return current;
}
