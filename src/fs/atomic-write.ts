import { constants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertFdInside, errnoOf } from './containment.js';
import { openDirectoryInside } from './dir-handle.js';
import { assertBound, assertBoundParent, type EntryBinding, lstatEntry } from './entry-binding.js';
import { FsError } from './fs-error.js';
import { sweepStaleTempFiles } from './stale-temp-files.js';
import { tempFileName } from './temp-name.js';

export { isTempFileName } from './temp-name.js';

/**
 * Writes `data` to `hostPath` atomically: a temp file in the same directory
 * (O_CREAT|O_EXCL|O_NOFOLLOW, verified inside the mount after opening), fsync,
 * then rename over the target. rename replaces the directory entry, so a
 * hardlinked or symlinked target never has its outside inode modified. A reader
 * sees the old or the new content, never a torn file. The existing mode is kept.
 * Abandoned temp files in the directory (see stale-temp-files) are swept afterwards.
 */
export async function writeFileAtomic(
  hostPath: string,
  realRoot: string,
  data: string | Buffer,
  options: { mode?: number; createParents?: boolean; displayPath: string; bound?: EntryBinding },
): Promise<{ created: boolean; bytes: number }> {
  const { displayPath, bound } = options;
  const name = path.basename(hostPath);
  const dir = await openDirectoryInside(path.dirname(hostPath), realRoot, {
    create: options.createParents ?? false,
    displayPath,
  });
  const target = dir.child(name);
  const tempName = tempFileName(name);
  const temp = dir.child(tempName);
  let handle: fs.FileHandle | undefined;
  try {
    // The directory held is the one approved: a directory exchanged in by another process is refused.
    if (bound?.parent !== undefined) assertBoundParent(bound, await dir.identity(), 'Nothing was written.');
    // Independent syscalls run together: the target's lstat, creating the temp file and
    // checking where it really is. Errors are still reported in that order (the catch
    // below removes the temp file).
    const checkTarget = targetChecker(target, displayPath);
    try {
      handle = await fs.open(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
    } catch (error) {
      await checkTarget();
      throw error;
    }
    const inside = assertFdInside(handle.fd, temp, realRoot, displayPath);
    inside.catch(() => undefined);
    const existing = await checkTarget();
    await inside;
    const mode = options.mode ?? (existing?.isFile() ? existing.mode & 0o7777 : 0o644);
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    // explicit chmod: the umask must not change the file's mode
    await Promise.all([handle.writeFile(buffer), handle.chmod(mode)]);
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (bound) {
      // Last check, through the held directory: the entry replaced is the approved file.
      assertBound(bound, await lstatEntry(target), 'Nothing was written.');
      // A create claims the name with link(2), which fails if anything appeared there.
      if (bound.entry === null) await claimName(temp, target, displayPath);
      else await fs.rename(temp, target);
    }
    // rename replaces the entry: a hardlinked or symlinked target never has its other inode modified.
    else await fs.rename(temp, target);
    await dir.sync();
    // Temp files of writers killed mid-write (kill -9, power loss) are removed here, best effort.
    await sweepStaleTempFiles(dir).catch(() => undefined);
    return { created: existing === undefined, bytes: buffer.length };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw asFsError(error, displayPath);
  } finally {
    await dir.close();
  }
}

/** Links the finished temp file in as `target` unless something exists there, then drops the temp name. */
async function claimName(temp: string, target: string, displayPath: string): Promise<void> {
  try {
    await fs.link(temp, target);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'EPERM' || code === 'ENOTSUP') return fs.rename(temp, target); // no hard links here
    if (code !== 'EEXIST') throw error;
    throw new FsError(
      'stale_approval',
      `${displayPath} was created by someone else after its creation was approved; nothing was written.`,
    );
  }
  await fs.unlink(temp);
}

/**
 * Starts lstat of the target now; the returned function waits for it and refuses a
 * target that is not a regular file or a symlink. Resolves to its stat (undefined: missing).
 */
function targetChecker(target: string, displayPath: string): () => Promise<Stats | undefined> {
  const stat = fs.lstat(target).catch((error) => {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  });
  stat.catch(() => undefined); // observed by the caller, possibly after other awaits
  return async () => {
    const existing = await stat;
    if (existing && !existing.isFile() && !existing.isSymbolicLink()) {
      throw new FsError(
        'not_a_file',
        `${displayPath} exists and is not a regular file; nothing was written.`,
      );
    }
    return existing;
  };
}

function asFsError(error: unknown, displayPath: string): FsError {
  if (error instanceof FsError) return error;
  const code = errnoOf(error);
  if (code === 'EISDIR' || code === 'ENOTDIR') {
    return new FsError(
      'not_a_file',
      `${displayPath} is a directory or lies under a file; nothing was written.`,
    );
  }
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new FsError('io_error', `No space left to write ${displayPath}; nothing was written.`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new FsError(
      'io_error',
      `Permission denied writing ${displayPath} (${code}); nothing was written.`,
    );
  }
  return new FsError('io_error', `Writing ${displayPath} failed (${code ?? 'error'}); nothing was written.`);
}
