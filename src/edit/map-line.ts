import { idDiff } from './id-diff.js';

/**
 * A diff between two reads is bounded: a stretch whose Myers diff runs past this
 * is left unmatched, and anchors in it fall back to the context ladder.
 */
const MAP_TIMEOUT_MS = 500;

/**
 * How the lines of an earlier text map into a later one, as runs in the earlier
 * text's order: run r starts at earlier line `from[r]`, and is kept (its lines
 * now start at `to[r]`), changed (`to[r]` is CHANGED) or unmatched (UNKNOWN).
 */
interface LineMap {
  from: Int32Array;
  to: Int32Array;
}

const CHANGED = -1;
const UNKNOWN = -2;

interface LineDiff {
  after: Uint32Array;
  prefix: number;
  suffix: number;
  /** The middle's map (built when first needed). */
  map?: LineMap;
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

/** Dense ids for two runs of line hashes (equal hashes, equal ids), through one open-addressing table. */
function denseIds(a: Uint32Array, b: Uint32Array): { A: Int32Array; B: Int32Array; size: number } {
  let slots = 16;
  while (slots < 2 * (a.length + b.length)) slots *= 2;
  const mask = slots - 1;
  const keys = new Uint32Array(slots);
  const ids = new Int32Array(slots).fill(-1);
  let size = 0;
  const idsOf = (hashes: Uint32Array) => {
    const out = new Int32Array(hashes.length);
    for (let i = 0; i < hashes.length; i++) {
      const h = hashes[i]!;
      let slot = Math.imul(h, 0x9e3779b1) >>> 0;
      slot &= mask;
      while (ids[slot] !== -1 && keys[slot] !== h) slot = (slot + 1) & mask;
      if (ids[slot] === -1) {
        keys[slot] = h;
        ids[slot] = size++;
      }
      out[i] = ids[slot]!;
    }
    return out;
  };
  const A = idsOf(a);
  const B = idsOf(b);
  return { A, B, size };
}

/**
 * The middle's runs (between the common prefix and suffix), diffed patience style
 * (see id-diff.ts): lines unique on both sides anchor the diff, so thousands of
 * edits between two reads of a big file still map in near-linear time.
 */
function middleMap(before: Uint32Array, after: Uint32Array, d: LineDiff): LineMap {
  const { A, B, size } = denseIds(
    before.subarray(d.prefix, before.length - d.suffix),
    after.subarray(d.prefix, after.length - d.suffix),
  );
  const from: number[] = [];
  const to: number[] = [];
  let b = d.prefix;
  let a = d.prefix;
  idDiff(A, B, size, performance.now() + MAP_TIMEOUT_MS, (kind, count, coarse) => {
    if (count <= 0) return;
    if (kind === '+') {
      a += count;
      return;
    }
    from.push(b);
    to.push(kind === '=' ? a : coarse ? UNKNOWN : CHANGED);
    b += count;
    if (kind === '=') a += count;
  });
  return { from: Int32Array.from(from), to: Int32Array.from(to) };
}

/**
 * Where line `at` of an earlier text is in the current one, from their line
 * hashes: the common prefix and suffix are kept as they are, the middle is
 * diffed once per pair of texts and each lookup is a binary search. A number
 * when the line survived unchanged; 'changed' when the diff removed it (edited or
 * deleted since); undefined when its stretch of the diff ran out of time.
 */
export function mapLine(before: Uint32Array, after: Uint32Array, at: number): number | 'changed' | undefined {
  const d = lineDiff(before, after);
  if (at < d.prefix) return at;
  if (at >= before.length - d.suffix) return at + after.length - before.length;
  d.map ??= middleMap(before, after, d);
  const { from, to } = d.map;
  let lo = 0;
  let hi = from.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (from[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  const target = to[lo]!;
  if (target === UNKNOWN) return undefined;
  if (target === CHANGED) return 'changed';
  return target + (at - from[lo]!);
}
