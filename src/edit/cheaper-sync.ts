import type { LinesWithEnds } from './anchored-diff.js';

/** The walk's view of its texts for this search. */
export interface SyncSides {
  a: LinesWithEnds;
  b: LinesWithEnds;
  a1: number;
  b1: number;
  /**
   * Whether a[i], b[j] start `window` equal lines that the walk trusts to pin the sides
   * together (found nowhere else nearby): the exact check a hash hit is confirmed by.
   */
  trusted(i: number, j: number): boolean;
}

/**
 * The cheapest trusted sync after a change at a[i0], b[j0], skipping fewer than `reach`
 * lines on each side, that costs less than `limit`,
 * scored as the walk scores syncs (lines skipped on both sides, plus the gap left
 * between its diagonal and the region end's); undefined when none does. It finds what
 * the walk's two kinds of search miss: a change of hundreds of lines replaced by
 * hundreds (past the near search's reach, and not a pure insertion or deletion, which is
 * all the far scan tries). Without it a block moved far was taken as thousands of lines
 * inserted past it, where the shortest diff replaces the block.
 *
 * Each run of `window` lines of b is hashed (a rolling hash of line hashes) into a
 * table, a's runs are looked up in order of lines skipped, and a hit is confirmed by
 * `trusted`. A run of `window` lines is many bits even in text of two distinct lines, so
 * hits by chance are rare, and the search costs its lines, not their product: with
 * `reach` the jump's length, within a constant of the far scan that found the jump
 * (which the walk's budget bounds).
 */
export function cheaperSync(
  sides: SyncSides,
  window: number,
  i0: number,
  j0: number,
  reach: number,
  limit: number,
): { x: number; y: number } | undefined {
  const hashesA = windowHashes(sides.a, i0, Math.min(sides.a1, i0 + reach + window - 1), window);
  const hashesB = windowHashes(sides.b, j0, Math.min(sides.b1, j0 + reach + window - 1), window);
  if (hashesA.length === 0 || hashesB.length === 0) return undefined;
  const endDiagonal = sides.a1 - i0 - (sides.b1 - j0);
  // b's runs by hash: a chain from each slot through `next`, in order of lines skipped.
  let slots = 16;
  while (slots < 2 * hashesB.length) slots *= 2;
  const head = new Int32Array(slots).fill(-1);
  const next = new Int32Array(hashesB.length);
  for (let q = hashesB.length - 1; q >= 0; q--) {
    const slot = hashesB[q]! & (slots - 1);
    next[q] = head[slot]!;
    head[slot] = q;
  }
  let best: { x: number; y: number } | undefined;
  let bestScore = limit;
  // Hits the check refuses: repeating text (a run found a period off) or a collision.
  let refused = 0;
  for (let p = 0; p < hashesA.length && p < bestScore; p++) {
    const h = hashesA[p]!;
    // A score never falls as q grows (q + |c + q| for a fixed c): the first too dear ends the chain.
    for (let q = head[h & (slots - 1)]!; q !== -1; q = next[q]!) {
      const score = p + q + Math.abs(endDiagonal - (p - q));
      if (score >= bestScore) break;
      if (hashesB[q] !== h) continue;
      if (sides.trusted(i0 + p, j0 + q)) {
        bestScore = score;
        best = { x: i0 + p, y: j0 + q };
      } else if (++refused > MAX_REFUSED) return best;
    }
  }
  return best;
}

/** Hits refused before the search gives up (text that repeats: the walk's other searches decide). */
const MAX_REFUSED = 64;
const BASE = 0x01000193;

/** For each line i in [from, to - window] of `t`: a hash of lines [i, i + window). */
function windowHashes(t: LinesWithEnds, from: number, to: number, window: number): Int32Array {
  if (to - from < window) return new Int32Array(0);
  const S = t.starts;
  const { text } = t;
  const lineHash = new Int32Array(to - from);
  for (let l = from; l < to; l++) {
    let h = 0x811c9dc5;
    for (let k = S[l]!; k < S[l + 1]!; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
    lineHash[l - from] = h ^ (h >>> 15);
  }
  // H(i) = sum of lineHash[i + k] * BASE^(window - 1 - k), mod 2^32: rolled on one line at a time.
  let top = 1; // BASE^(window - 1)
  for (let k = 1; k < window; k++) top = Math.imul(top, BASE);
  const out = new Int32Array(to - from - window + 1);
  let h = 0;
  for (let k = 0; k < window; k++) h = (Math.imul(h, BASE) + lineHash[k]!) | 0;
  out[0] = h;
  for (let i = 1; i < out.length; i++) {
    h = (Math.imul(h - Math.imul(lineHash[i - 1]!, top), BASE) + lineHash[i + window - 1]!) | 0;
    out[i] = h;
  }
  return out;
}
