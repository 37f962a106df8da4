const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after every earlier call with the same key has finished (FIFO). Keyed
 * by real host path, so parallel tool calls on one file run one after another.
 * Process-wide on purpose: two toolsets over the same directory must not race.
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
    return await fn();
  } finally {
    release();
    // Last one out removes the entry, so the map does not grow with every file ever touched.
    if (tails.get(key) === tail) tails.delete(key);
  }
}
