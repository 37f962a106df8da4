import { withProcessLock } from './process-lock.js';

const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after every earlier call with the same key has finished, in this
 * process (FIFO) and in every other process of this user (see process-lock.ts).
 * Keyed by real host path, so parallel tool calls on one file run one after
 * another, and two server processes never interleave a check and a write.
 */
export async function withFileLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  try {
    await previous;
    // In-process first: one waiter per process polls the shared lock, the rest queue here.
    return await withProcessLock(key, fn);
  } finally {
    release();
    // Last one out removes the entry, so the map does not grow with every file ever touched.
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/**
 * withFileLock over several keys at once, taken in one fixed order (sorted, each key
 * once), so two callers locking the same pair cannot deadlock.
 */
export function withFileLocks<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
  const ordered = [...new Set(keys)].sort();
  const run = (i: number): Promise<T> =>
    i === ordered.length ? fn() : withFileLock(ordered[i]!, () => run(i + 1));
  return run(0);
}
