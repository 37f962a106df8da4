import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertFdInside, errnoOf } from './containment.js';
import { ensureDirectoryInside } from './ensure-directory.js';
import { FsError } from './fs-error.js';

/** Temp files are named `.<name>.sandbox-approval-<hex>.tmp` so they are easy to recognise and clean up. */
export const TEMP_MARKER = '.sandbox-approval-';

export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.includes(TEMP_MARKER) && name.endsWith('.tmp');
}

/**
 * Writes `data` to `hostPath` atomically: a temp file in the same directory
 * (O_CREAT|O_EXCL|O_NOFOLLOW, verified inside the mount after opening), fsync,
 * then rename over the target. rename replaces the directory entry, so a
 * hardlinked or symlinked target never has its outside inode modified. A reader
 * sees the old or the new content, never a torn file. The existing mode is kept.
 */
export async function writeFileAtomic(
  hostPath: string,
  realRoot: string,
  data: string | Buffer,
  options: { mode?: number; createParents?: boolean; displayPath: string },
): Promise<{ created: boolean; bytes: number }> {
  const { displayPath } = options;
  const dir = path.dirname(hostPath);
  await ensureDirectoryInside(dir, realRoot, { create: options.createParents ?? false, displayPath });
  const existing = await fs.lstat(hostPath).catch((error) => {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (existing && !existing.isFile() && !existing.isSymbolicLink()) {
    throw new FsError('not_a_file', `${displayPath} exists and is not a regular file; nothing was written.`);
  }
  const mode = options.mode ?? (existing?.isFile() ? existing.mode & 0o7777 : 0o644);
  const temp = path.join(
    dir,
    `.${path.basename(hostPath).slice(0, 100)}${TEMP_MARKER}${randomBytes(6).toString('hex')}.tmp`,
  );
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let handle: fs.FileHandle | undefined;
  try {
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
    await fs.rename(temp, hostPath);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    if (error instanceof FsError) throw error;
    const code = errnoOf(error);
    if (code === 'EISDIR' || code === 'ENOTDIR') {
      throw new FsError(
        'not_a_file',
        `${displayPath} is a directory or lies under a file; nothing was written.`,
      );
    }
    if (code === 'ENOSPC' || code === 'EDQUOT')
      throw new FsError('io_error', `No space left to write ${displayPath}; nothing was written.`);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new FsError(
        'io_error',
        `Permission denied writing ${displayPath} (${code}); nothing was written.`,
      );
    }
    throw new FsError('io_error', `Writing ${displayPath} failed (${code ?? 'error'}); nothing was written.`);
  }
  await syncDirectory(dir);
  return { created: existing === undefined, bytes: buffer.length };
}

/** fsync the directory so the rename itself survives a crash (best effort: not all platforms allow it). */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Directory fsync is unsupported on some file systems; the data itself is already synced.
  }
}
