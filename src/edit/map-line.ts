import { idDiff } from './id-diff.js';
import { WorkBudget } from './work-budget.js';

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
  /** Lines inserted in the current text just before run r (before its first line). */
  insertedBefore: Int32Array;
  /** Lines inserted after the last run (at the end of the middle). */
  insertedAtEnd: number;
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
  const insertedBefore: number[] = [];
  let inserted = 0;
  let b = d.prefix;
  let a = d.prefix;
  idDiff(
    A,
    B,
    size,
    new WorkBudget(MAP_TIMEOUT_MS),
    (kind, count, coarse) => {
      if (count <= 0) return;
      if (kind === '+') {
        a += count;
        inserted += count;
        return;
      }
      const target = kind === '=' ? a : coarse ? UNKNOWN : CHANGED;
      const last = to.length - 1;
      // One run per stretch: a run continuing the last one (nothing inserted between) extends it.
      const continues =
        last >= 0 &&
        inserted === 0 &&
        (target >= 0 ? to[last]! >= 0 && to[last]! + (b - from[last]!) === a : to[last] === target);
      if (!continues) {
        from.push(b);
        to.push(target);
        insertedBefore.push(inserted);
      }
      inserted = 0;
      b += count;
      if (kind === '=') a += count;
    },
    true,
  );
  return {
    from: Int32Array.from(from),
    to: Int32Array.from(to),
    insertedBefore: Int32Array.from(insertedBefore),
    insertedAtEnd: inserted,
  };
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

/**
 * The stretch of kept lines holding line `at` of the earlier text (it must map to
 * a number), with what the diff put right before and after it: lines removed from
 * the earlier text and lines inserted in the current one. Read `[readFrom, readTo)`
 * is current `[curFrom, curTo)`.
 */
export interface KeptRun {
  readFrom: number;
  readTo: number;
  curFrom: number;
  curTo: number;
  removedBefore: number;
  insertedBefore: number;
  removedAfter: number;
  insertedAfter: number;
}

export function keptRun(before: Uint32Array, after: Uint32Array, at: number): KeptRun | undefined {
  const d = lineDiff(before, after);
  const shift = after.length - before.length;
  const middleEnd = before.length - d.suffix;
  if (d.prefix === before.length && d.prefix === after.length) {
    return {
      readFrom: 0,
      readTo: before.length,
      curFrom: 0,
      curTo: after.length,
      removedBefore: 0,
      insertedBefore: 0,
      removedAfter: 0,
      insertedAfter: 0,
    };
  }
  d.map ??= middleMap(before, after, d);
  const { from, to, insertedBefore, insertedAtEnd } = d.map;
  const runs = from.length;
  // Runs of the whole text: the prefix (a kept run), the middle's runs, the suffix (kept).
  const startOf = (r: number) => (r < 0 ? 0 : r >= runs ? middleEnd : from[r]!);
  const endOf = (r: number) =>
    r < 0 ? d.prefix : r >= runs ? before.length : r + 1 < runs ? from[r + 1]! : middleEnd;
  const curOf = (r: number) => (r < 0 ? 0 : r >= runs ? middleEnd + shift : to[r]!);
  const insertedAt = (r: number) => (r >= runs ? insertedAtEnd : r < 0 ? 0 : insertedBefore[r]!);
  let r: number;
  if (at < d.prefix) r = -1;
  else if (at >= middleEnd) r = runs;
  else {
    let lo = 0;
    let hi = runs - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (from[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    r = lo;
  }
  if (r >= 0 && r < runs && to[r]! < 0) return undefined;
  // A run's neighbours: a removed run (its lines) or none, and the lines inserted between.
  const removed = (q: number) => (q >= 0 && q < runs && to[q]! < 0 ? endOf(q) - startOf(q) : 0);
  const prev = r - 1;
  const next = r + 1;
  const removedBefore = r >= 0 ? removed(prev) : 0;
  const removedAfter = r < runs ? removed(next) : 0;
  // Inserted lines sit before a run; a removed neighbour passes on those before it too.
  const insBefore = r < 0 ? 0 : insertedAt(r) + (removedBefore > 0 ? insertedAt(prev) : 0);
  const insAfter = r >= runs ? 0 : insertedAt(next) + (removedAfter > 0 ? insertedAt(next + 1) : 0);
  const readFrom = startOf(r);
  const readTo = endOf(r);
  const curFrom = curOf(r);
  return {
    readFrom,
    readTo,
    curFrom,
    curTo: curFrom + (readTo - readFrom),
    removedBefore,
    insertedBefore: insBefore,
    removedAfter,
    insertedAfter: insAfter,
  };
}
