import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertFdInside, errnoOf } from './containment.js';
import { openDirectoryInside } from './dir-handle.js';
import { FsError } from './fs-error.js';
import { sweepStaleTempFiles } from './stale-temp-files.js';
import { tempFileName } from './temp-name.js';

export { isTempFileName, TEMP_MARKER } from './temp-name.js';

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
  options: { mode?: number; createParents?: boolean; displayPath: string },
): Promise<{ created: boolean; bytes: number }> {
  const { displayPath } = options;
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
    const existing = await fs.lstat(target).catch((error) => {
      if (errnoOf(error) === 'ENOENT') return undefined;
      throw error;
    });
    if (existing && !existing.isFile() && !existing.isSymbolicLink()) {
      throw new FsError(
        'not_a_file',
        `${displayPath} exists and is not a regular file; nothing was written.`,
      );
    }
    const mode = options.mode ?? (existing?.isFile() ? existing.mode & 0o7777 : 0o644);
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    handle = await fs.open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    await assertFdInside(handle.fd, temp, realRoot, displayPath);
    await handle.writeFile(buffer);
    await handle.chmod(mode); // explicit: the umask must not change the file's mode
    await handle.sync();
    await handle.close();
    handle = undefined;
    // rename replaces the entry: a hardlinked or symlinked target never has its other inode modified.
    await fs.rename(temp, target);
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
