import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isInsideRoot } from '../sandbox/real-path.js';
import { errnoOf, realPathOfFd } from './containment.js';
import { FsError } from './fs-error.js';

const USE_PROC = process.platform === 'linux';
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

/**
 * An open, verified directory inside a mount. Node has no openat(2), but on
 * Linux `/proc/self/fd/<fd>/<name>` resolves through the directory we hold, so
 * creating, renaming or unlinking `name` there cannot be redirected by a
 * directory swapped for a symlink after the check. Elsewhere the verified real
 * path is used (a narrower, best-effort guarantee).
 */
export class DirHandle {
  private constructor(
    private readonly handle: fs.FileHandle,
    /** Real path of the directory, verified inside the mount when opened. */
    readonly realPath: string,
  ) {}

  static async open(dir: string, realRoot: string, displayPath: string): Promise<DirHandle> {
    const handle = await fs.open(dir, DIR_FLAGS);
    return DirHandle.adopt(handle, dir, realRoot, displayPath);
  }

  private static async adopt(
    handle: fs.FileHandle,
    dir: string,
    realRoot: string,
    displayPath: string,
  ): Promise<DirHandle> {
    const real = await realPathOfFd(handle.fd, dir).catch(async (error) => {
      await handle.close();
      throw error;
    });
    if (!isInsideRoot(realRoot, real)) {
      await handle.close();
      throw new FsError(
        'path_not_in_sandbox',
        `A directory on the way to ${displayPath} leads outside the sandbox; nothing was done.`,
      );
    }
    return new DirHandle(handle, real);
  }

  /** A path for `name` inside this directory that syscalls resolve through the held fd. */
  child(name: string): string {
    if (name.includes('/') || name === '..' || name === '.' || name === '')
      throw new Error(`not a plain name: ${name}`);
    return USE_PROC ? `/proc/self/fd/${this.handle.fd}/${name}` : path.join(this.realPath, name);
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
        await fs.open(p, DIR_FLAGS | constants.O_NOFOLLOW),
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
        await fs.mkdir(p).catch((e) => {
          if (errnoOf(e) !== 'EEXIST') throw e;
        });
        return this.subdirectory(name, realRoot, { ...options, create: false });
      }
      if (code !== 'ENOTDIR' && code !== 'ELOOP') throw error;
      const stat = await fs.lstat(p);
      if (!stat.isSymbolicLink())
        throw new FsError('not_a_file', `A parent of ${options.displayPath} is a file, not a directory.`);
      // A symlinked directory: allowed only when its real target is a directory inside the mount.
      const real = await fs.realpath(p).catch(() => undefined);
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
    const stat = await this.handle.stat({ bigint: true });
    return `${stat.dev}:${stat.ino}`;
  }

  /** Names of the entries of this directory, listed through the held fd. */
  async entries(): Promise<string[]> {
    return fs.readdir(USE_PROC ? `/proc/self/fd/${this.handle.fd}` : this.realPath);
  }

  async sync(): Promise<void> {
    await this.handle.sync().catch(() => undefined); // unsupported on some file systems; data is synced already
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
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
