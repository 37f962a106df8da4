import fs from 'node:fs/promises';
import type { DirHandle } from './dir-handle.js';
import { isTempFileName, tempFileOwner } from './temp-name.js';

/** Any temp file of ours this old is abandoned: a live write keeps touching its file. */
export const STALE_AFTER_MS = 15 * 60_000;
/** A temp file whose writer process is gone is removed once it is this old. */
export const DEAD_WRITER_GRACE_MS = 30_000;
/** Each directory is swept at most this often per process. */
const SWEEP_INTERVAL_MS = 60_000;

const lastSweep = new Map<string, number>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** Whether a temp file is abandoned: very old, or old enough and its writer process is gone. */
export function isStaleTempFile(name: string, mtimeMs: number, now = Date.now()): boolean {
  if (!isTempFileName(name)) return false;
  const age = now - mtimeMs;
  if (age > STALE_AFTER_MS) return true;
  const pid = tempFileOwner(name);
  return pid !== undefined && pid !== process.pid && age > DEAD_WRITER_GRACE_MS && !processAlive(pid);
}

/**
 * Removes abandoned atomic-write temp files (left by a writer killed mid-write)
 * from a held directory. Only regular files with our temp-name pattern are
 * touched, through the held directory; failures are ignored (best effort).
 * Returns the names removed.
 */
export async function sweepStaleTempFiles(
  dir: DirHandle,
  options: { now?: number; force?: boolean } = {},
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const last = lastSweep.get(dir.realPath);
  if (!options.force && last !== undefined && now - last < SWEEP_INTERVAL_MS) return [];
  if (lastSweep.size > 10_000) lastSweep.clear();
  lastSweep.set(dir.realPath, now);
  const removed: string[] = [];
  let names: string[];
  try {
    names = (await dir.entries()).filter(isTempFileName);
  } catch {
    return removed;
  }
  for (const name of names) {
    try {
      const entry = dir.child(name);
      const stat = await fs.lstat(entry);
      if (!stat.isFile() || !isStaleTempFile(name, stat.mtimeMs, now)) continue;
      await fs.unlink(entry);
      removed.push(name);
    } catch {
      // gone already, or not ours to remove: leave it
    }
  }
  return removed;
}
