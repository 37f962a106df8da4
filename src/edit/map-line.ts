import { diffArrays } from 'diff';

/** A diff between two reads is bounded: past this, anchors fall back to the context ladder. */
const MAP_TIMEOUT_MS = 500;

/**
 * Where line `at` of an earlier text is in the current one, from their line
 * hashes: the common prefix and suffix are kept as they are, the middle is
 * diffed. A number when the line survived unchanged; 'changed' when the diff
 * removed it (edited or deleted since); undefined when the diff ran out of time.
 */
export function mapLine(before: Uint32Array, after: Uint32Array, at: number): number | 'changed' | undefined {
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before[prefix] === after[prefix]) prefix++;
  if (at < prefix) return at;
  let suffix = 0;
  while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix])
    suffix++;
  if (at >= before.length - suffix) return at + after.length - before.length;
  const changes = diffArrays(
    Array.from(before.subarray(prefix, before.length - suffix)),
    Array.from(after.subarray(prefix, after.length - suffix)),
    { timeout: MAP_TIMEOUT_MS },
  );
  if (changes === undefined) return undefined;
  let b = prefix;
  let a = prefix;
  for (const c of changes) {
    if (c.added) a += c.count;
    else if (c.removed) {
      if (at < b + c.count) return 'changed';
      b += c.count;
    } else {
      if (at < b + c.count) return a + (at - b);
      b += c.count;
      a += c.count;
    }
  }
  return 'changed';
}
