import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';

/**
 * The fallback cross-process lock where abstract UNIX sockets do not exist
 * (non-Linux): a lock file created whole (link() of a complete temp file)
 * holding "pid starttime token". A lock whose owner is gone is broken.
 *
 * Breaking is serialised by a marker (also created whole, by link()), and it
 * removes only the exact inode that was read: the lock is renamed aside, its
 * inode compared, and a lock that turns out to be someone else's fresh one is
 * linked back. Residual race (documented in docs/web.md): between that rename
 * and the link back, a third process may take the free name; pid checks are
 * also only as exact as the platform's process start time (Linux /proc).
 */

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

interface Held {
  owner: string;
  ino: number;
}

/** Content and inode of one lock file, read through one descriptor (so they belong together). */
async function readHeld(file: string): Promise<Held | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const [stat, owner] = await Promise.all([handle.stat(), handle.readFile('utf8')]);
    return { owner, ino: stat.ino };
  } finally {
    await handle.close();
  }
}

/** Creates `file` holding `content`, whole or not at all; false when it exists. */
async function createWhole(file: string, content: string): Promise<boolean> {
  const temp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  await fs.writeFile(temp, content, { mode: 0o600 });
  try {
    await fs.link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** Removes the lock inode `held` (its owner is dead) if it is still the one at `file`. */
async function breakStale(file: string, held: Held): Promise<void> {
  // One breaker per lock name at a time; a marker is whole from its creation, so never mistaken as dead.
  const marker = `${file}.break`;
  if (!(await createWhole(marker, `${ME} ${randomBytes(16).toString('hex')}`))) {
    const breaker = await readHeld(marker);
    if (breaker !== undefined && !ownerAlive(breaker.owner)) await removeIfSame(marker, breaker.ino);
    return;
  }
  try {
    // Re-read under the marker: another breaker may already have replaced the dead lock by a live one.
    const now = await readHeld(file);
    if (now?.ino === held.ino && now.owner === held.owner) await removeIfSame(file, held.ino);
  } finally {
    await fs.rm(marker, { force: true });
  }
}

/** Renames `file` aside and deletes it if it is inode `ino`; a different inode is put back. */
async function removeIfSame(file: string, ino: number): Promise<void> {
  const aside = `${file}.${randomBytes(8).toString('hex')}.aside`;
  try {
    await fs.rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if ((await fs.lstat(aside)).ino === ino) return;
    // Someone else's newer lock: restore it (EEXIST here is the documented residual race).
    await fs.link(aside, file).catch(() => undefined);
  } finally {
    await fs.rm(aside, { force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds the lock file `file` while `fn` runs (waits for live holders, breaks dead ones). */
export async function withLockFile<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const owner = `${ME} ${randomBytes(16).toString('hex')}`;
  for (let wait = 1; !(await createWhole(file, owner)); wait = Math.min(wait * 2, 25)) {
    const held = await readHeld(file);
    if (held !== undefined && !ownerAlive(held.owner)) await breakStale(file, held);
    else await sleep(wait);
  }
  try {
    return await fn();
  } finally {
    // Release only our own lock (one wrongly broken is left to its new owner).
    const held = await readHeld(file);
    if (held?.owner === owner) await removeIfSame(file, held.ino);
  }
}
