import fs, { constants, type Stats } from 'node:fs';
import path from 'node:path';
import { assertFdInside, errnoOf } from './containment.js';
import { openDirectoryInside } from './dir-handle.js';
import { assertBound, assertBoundParent, type EntryBinding, lstatEntry } from './entry-binding.js';
import { closeFd, SYNC_DATA_MAX, syncFd, syncFdNow, type WriteData, writeFdHashed } from './fd-io.js';
import { FsError } from './fs-error.js';
import { isOwnEntry, type OwnFile, tempReplaced } from './own-entry.js';
import { sweepStaleTempFiles } from './stale-temp-files.js';
import { tempFileName } from './temp-name.js';

export { isTempFileName } from './temp-name.js';

interface AtomicWriteOptions {
  mode?: number;
  createParents?: boolean;
  displayPath: string;
  bound?: EntryBinding;
  /** CPU work of the caller's, run while the file's fsync waits for the disk. */
  whileSyncing?: () => void;
}

/** Atomic writes of this process under way: a small write alone syncs on this thread. */
let writesUnderWay = 0;

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
  data: WriteData,
  options: AtomicWriteOptions,
): Promise<{ created: boolean; bytes: number; sha256: string }> {
  writesUnderWay++;
  try {
    return await writeOnce(hostPath, realRoot, data, options);
  } finally {
    writesUnderWay--;
  }
}

async function writeOnce(
  hostPath: string,
  realRoot: string,
  data: WriteData,
  options: AtomicWriteOptions,
): Promise<{ created: boolean; bytes: number; sha256: string }> {
  const { displayPath, bound } = options;
  const name = path.basename(hostPath);
  const dir = await openDirectoryInside(path.dirname(hostPath), realRoot, {
    create: options.createParents ?? false,
    displayPath,
  });
  const target = dir.child(name);
  const tempName = tempFileName(name);
  const temp = dir.child(tempName);
  let fd: number | undefined;
  let mine: OwnFile | undefined;
  try {
    // The directory held is the one approved: a directory exchanged in by another process is refused.
    if (bound?.parent !== undefined) assertBoundParent(bound, await dir.identity(), 'Nothing was written.');
    const existing = checkTarget(target, displayPath);
    fd = fs.openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    // The descriptor stays open until the file is in place, so this inode number cannot be reused meanwhile.
    mine = fs.fstatSync(fd);
    await assertFdInside(fd, temp, realRoot, displayPath);
    const mode = options.mode ?? (existing?.isFile() ? existing.mode & 0o7777 : 0o644);
    // Without a mode of its own the file keeps the one it has when the new version goes in.
    const followsMode = options.mode === undefined && existing?.isFile() === true;
    const written = await writeFdHashed(fd, data);
    // explicit chmod: the umask must not change the file's mode
    fs.fchmodSync(fd, mode);
    const now = written.bytes <= SYNC_DATA_MAX && writesUnderWay === 1;
    const sha256 = await syncWith(fd, now, () => {
      const digest = written.sha256();
      options.whileSyncing?.();
      return digest;
    });
    // Another process may have renamed something of its own over the temp name while we
    // wrote (a link to a file elsewhere, a FIFO): only the file written here is moved in.
    if (!isOwnEntry(temp, mine)) throw tempReplaced(displayPath, 'nothing was written');
    // A chmod by another process while this version was written is kept, not undone.
    if (followsMode) followMode(fd, target, mode);
    // Last check, through the held directory: the entry replaced is the approved file. It
    // runs right before the rename, with nothing in between (no await, no other call), so
    // the window another process could swap the file in is as short as two system calls.
    if (bound) assertBound(bound, lstatEntry(target), 'Nothing was written.');
    // A create claims the name with link(2), which fails if anything appeared there.
    if (bound?.entry === null) claimName(temp, target, displayPath, mine);
    // rename replaces the entry: a hardlinked or symlinked target never has its other inode modified.
    else fs.renameSync(temp, target);
    if (!isOwnEntry(target, mine))
      throw tempReplaced(displayPath, 'what the other process put there is now at that path');
    closeFd(fd);
    fd = undefined;
    await dir.sync(now);
    // Temp files of writers killed mid-write (kill -9, power loss) are removed here, best effort.
    await sweepStaleTempFiles(dir).catch(() => undefined);
    return { created: existing === undefined, bytes: written.bytes, sha256 };
  } catch (error) {
    // Only our own temp file is removed: an entry another process put at its name is not ours.
    if (mine && isOwnEntry(temp, mine)) {
      try {
        fs.unlinkSync(temp);
      } catch {
        // already gone
      }
    }
    if (fd !== undefined) closeFd(fd);
    throw asFsError(error, displayPath);
  } finally {
    await dir.close();
  }
}

/**
 * fsync of `fd`, with `work` of the caller's. `now` (a small write, alone): synced on this
 * thread (see syncFdNow), then `work` runs. Else synced on the thread pool while `work`
 * runs here, then waited for, whatever `work` did (a descriptor must not be closed under
 * a running fsync).
 */
async function syncWith<T>(fd: number, now: boolean, work: () => T): Promise<T> {
  if (now) {
    syncFdNow(fd);
    return work();
  }
  const syncing = syncFd(fd);
  let result: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    result = { ok: true, value: work() };
  } catch (error) {
    result = { ok: false, error };
  }
  await syncing;
  if (!result.ok) throw result.error;
  return result.value;
}

/** Gives the temp file the target's mode when it changed since the write began (a file still). */
function followMode(fd: number, target: string, applied: number): void {
  let now: Stats;
  try {
    now = fs.lstatSync(target);
  } catch {
    return; // gone: the checks around the rename decide
  }
  if (now.isFile() && (now.mode & 0o7777) !== applied) fs.fchmodSync(fd, now.mode & 0o7777);
}

/** Links the finished temp file in as `target` unless something exists there, then drops the temp name. */
function claimName(temp: string, target: string, displayPath: string, mine: OwnFile): void {
  try {
    fs.linkSync(temp, target);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'EPERM' || code === 'ENOTSUP') {
      fs.renameSync(temp, target); // no hard links here
      return;
    }
    if (code !== 'EEXIST') throw error;
    throw new FsError(
      'stale_approval',
      `${displayPath} was created by someone else after its creation was approved; nothing was written.`,
    );
  }
  // The temp name is dropped only while it is still ours.
  if (isOwnEntry(temp, mine)) fs.unlinkSync(temp);
}

/** The target's lstat (undefined: missing); refuses a target that is not a regular file or a symlink. */
function checkTarget(target: string, displayPath: string): Stats | undefined {
  let existing: Stats;
  try {
    existing = fs.lstatSync(target);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  }
  if (!existing.isFile() && !existing.isSymbolicLink()) {
    throw new FsError('not_a_file', `${displayPath} exists and is not a regular file; nothing was written.`);
  }
  return existing;
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
