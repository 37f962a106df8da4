/** `fn`, computed on the first call and remembered: work a result may need, started whenever it is cheapest. */
export function once<T>(fn: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = fn();
      done = true;
    }
    return value;
  };
}
