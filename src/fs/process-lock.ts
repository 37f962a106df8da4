import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A lock shared by every process of this user on this machine, by key: a lock
 * file created atomically (link() of a complete temp file: it appears whole or
 * not at all) holding its owner's pid, process start time and a random token.
 *
 * Lock files live in `<os.tmpdir()>/sandbox-approval-locks-<uid>/` (mode 0700),
 * named by the SHA-256 of the key: never inside a mounted directory, so they do
 * not show in list_files nor trip suffix rules, and keys never become paths.
 *
 * Crash-safe: a lock whose owner is gone (no such pid, or a pid reused by a
 * process started at another time) is broken. Breaking is serialised by a
 * marker named after the dead owner's token (O_EXCL), so two processes never
 * both break one lock, and a token never comes back once its lock is removed.
 * Written here rather than taken from proper-lockfile: that one detects stale
 * locks by mtime (a holder must refresh it on a timer, and a stalled event loop
 * lets a second holder in); the owner's liveness is exact on one machine.
 */

let directory: string | undefined;

/** Where lock files live (created on first use, private to this user). */
export function lockDirectory(): string {
  directory ??= path.join(os.tmpdir(), `sandbox-approval-locks-${process.getuid?.() ?? 'user'}`);
  return directory;
}

const ME = `${process.pid} ${startTimeOf(process.pid)}`;

/** The process's start time in clock ticks since boot (Linux); '' where /proc is missing. */
function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses); starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** Whether the owner written in a lock file ("pid starttime token") still runs. */
function ownerAlive(owner: string): boolean {
  const [pidText, start] = owner.split(' ');
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // Same pid, other start time: the owner died and its pid was reused.
  const now = startTimeOf(pid);
  return !start || !now || start === now;
}

async function readOwner(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Removes `file` if it still holds `owner` (a dead one); at most one process does this per owner. */
async function breakStale(file: string, owner: string): Promise<void> {
  const token = owner.split(' ')[2] ?? '';
  if (!/^[0-9a-f]{32}$/.test(token)) {
    // Not written by this module (or torn by hand): replace it as a dead owner.
    await fs.rm(file, { force: true });
    return;
  }
  const marker = `${file}.break-${token}`;
  try {
    await fs.writeFile(marker, ME, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      // Another process is breaking it; a marker left by a breaker that died is cleared.
      const breaker = await readOwner(marker);
      if (breaker !== undefined && !ownerAlive(breaker)) await fs.rm(marker, { force: true });
      return;
    }
    throw error;
  }
  try {
    // Only the marker's holder removes a lock holding this token, and no new lock reuses it.
    if ((await readOwner(file)) === owner) await fs.rm(file, { force: true });
  } finally {
    await fs.rm(marker, { force: true });
  }
}

let checked: string | undefined;

/** The lock directory, refused when it belongs to someone else (a shared /tmp). */
async function ensureDirectory(): Promise<string> {
  const dir = lockDirectory();
  if (checked === dir) return dir;
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const stat = await fs.lstat(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid))
    throw new Error(`lock directory ${dir} is not a directory owned by this user`);
  checked = dir;
  return dir;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds the cross-process lock of `key` while `fn` runs (waits for other holders, breaks dead ones). */
export async function withProcessLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const dir = await ensureDirectory();
  const file = path.join(dir, `${createHash('sha256').update(key).digest('hex')}.lock`);
  const owner = `${ME} ${randomBytes(16).toString('hex')}`;
  const temp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  await fs.writeFile(temp, owner, { mode: 0o600 });
  try {
    for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
      try {
        await fs.link(temp, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const held = await readOwner(file);
      if (held !== undefined && !ownerAlive(held)) await breakStale(file, held);
      else await sleep(wait);
    }
  } finally {
    await fs.rm(temp, { force: true });
  }
  try {
    return await fn();
  } finally {
    // Release only our own lock (a lock wrongly broken by hand is left to its new owner).
    if ((await readOwner(file)) === owner) await fs.rm(file, { force: true });
  }
}
