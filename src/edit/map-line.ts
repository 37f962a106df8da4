import { type ChangeObject, diffArrays } from 'diff';

/** A diff between two reads is bounded: past this, anchors fall back to the context ladder. */
const MAP_TIMEOUT_MS = 500;

interface LineDiff {
  after: Uint32Array;
  prefix: number;
  suffix: number;
  /** The middle's changes (diffed when first needed); undefined when the diff ran out of time. */
  changes?: ChangeObject<number[]>[] | undefined;
}

/** One diff per pair of texts, whatever the number of anchors in a batch. */
const diffs = new WeakMap<Uint32Array, LineDiff>();

function lineDiff(before: Uint32Array, after: Uint32Array): LineDiff {
  const known = diffs.get(before);
  if (known?.after === after) return known;
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix])
    suffix++;
  const result: LineDiff = { after, prefix, suffix };
  diffs.set(before, result);
  return result;
}

/**
 * Where line `at` of an earlier text is in the current one, from their line
 * hashes: the common prefix and suffix are kept as they are, the middle is
 * diffed. A number when the line survived unchanged; 'changed' when the diff
 * removed it (edited or deleted since); undefined when the diff ran out of time.
 */
export function mapLine(before: Uint32Array, after: Uint32Array, at: number): number | 'changed' | undefined {
  const d = lineDiff(before, after);
  if (at < d.prefix) return at;
  if (at >= before.length - d.suffix) return at + after.length - before.length;
  if (!('changes' in d)) {
    d.changes = diffArrays(
      Array.from(before.subarray(d.prefix, before.length - d.suffix)),
      Array.from(after.subarray(d.prefix, after.length - d.suffix)),
      { timeout: MAP_TIMEOUT_MS },
    );
  }
  if (d.changes === undefined) return undefined;
  let b = d.prefix;
  let a = d.prefix;
  for (const c of d.changes) {
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
