import type { LinesWithEnds } from './anchored-diff.js';

/** Lines that must be equal in a row for the walk to pick both sides up again after a change. */
const SYNC = 3;
/** A change this long (old + new lines) or shorter is found by trying every split of it. */
const NEAR = 64;
/** An insertion or a deletion up to this long is found by scanning the other side. */
const FAR = 8192;
/** Lines up to this long are compared in a loop; longer ones as strings (natively). */
const SHORT_LINE = 64;

/** One side of the walk: lines [first, end) of a text and each line's hash. */
class Side {
  readonly hashes: Int32Array;
  constructor(
    readonly lines: LinesWithEnds,
    readonly first: number,
    readonly end: number,
  ) {
    // Hashed from the string itself: as fast as from a byte copy, and no copy of a big file is made.
    this.hashes = new Int32Array(end - first);
    const { text } = lines;
    for (let i = first; i < end; i++) {
      const to = lines.offset(i + 1);
      let h = 0x811c9dc5;
      for (let k = lines.offset(i); k < to; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
      this.hashes[i - first] = h;
    }
  }
}

/**
 * The equal stretches of two texts that differ here and there (the usual edit of
 * a big file), found by walking both in step and comparing lines in place: each
 * line is hashed once, in order, and no table of all lines is built. After a
 * change the walk looks for the nearest point where both sides agree again
 * (SYNC equal lines), first trying every split of a short change, then scanning
 * for the end of a long insertion or deletion. What lies between is a changed
 * region, left to an exact diff; a change the walk cannot see past ends the walk,
 * and the rest is one region.
 */
export class DiagonalWalk {
  private readonly a: Side;
  private readonly b: Side;

  constructor(a: LinesWithEnds, b: LinesWithEnds, a0: number, a1: number, b0: number, b1: number) {
    this.a = new Side(a, a0, a1);
    this.b = new Side(b, b0, b1);
  }

  /**
   * The changed regions [a0, a1, b0, b1], in order; `same(n)` is called with each
   * run of equal lines before the region after it (and after the last one).
   */
  *changed(same: (n: number) => void): Generator<[number, number, number, number]> {
    const { a, b } = this;
    let i = a.first;
    let j = b.first;
    for (;;) {
      let n = 0;
      while (i < a.end && j < b.end && this.equal(i, j)) {
        i++;
        j++;
        n++;
      }
      same(n);
      if (i === a.end || j === b.end) break;
      const next = this.resync(i, j);
      if (next === undefined) break;
      yield [i, next[0], j, next[1]];
      [i, j] = next;
    }
    if (i < a.end || j < b.end) yield [i, a.end, j, b.end];
  }

  private equal(i: number, j: number): boolean {
    const { a, b } = this;
    if (a.hashes[i - a.first] !== b.hashes[j - b.first]) return false;
    const from = a.lines.offset(i);
    const length = a.lines.offset(i + 1) - from;
    const bFrom = b.lines.offset(j);
    if (b.lines.offset(j + 1) - bFrom !== length) return false;
    const x = a.lines.text;
    const y = b.lines.text;
    if (length > SHORT_LINE) return x.substring(from, from + length) === y.substring(bFrom, bFrom + length);
    for (let k = 0; k < length; k++) if (x.charCodeAt(from + k) !== y.charCodeAt(bFrom + k)) return false;
    return true;
  }

  /** Whether both sides agree again from a[i], b[j]: SYNC equal lines, or equal lines up to both ends. */
  private synced(i: number, j: number): boolean {
    for (let k = 0; k < SYNC; k++) {
      if (i + k === this.a.end || j + k === this.b.end) return i + k === this.a.end && j + k === this.b.end;
      if (!this.equal(i + k, j + k)) return false;
    }
    return true;
  }

  /** The nearest point after a change at a[i0], b[j0] where both sides agree again. */
  private resync(i0: number, j0: number): [number, number] | undefined {
    const { a, b } = this;
    for (let d = 1; d <= NEAR; d++) {
      for (let x = 0; x <= d; x++) {
        const i = i0 + x;
        const j = j0 + d - x;
        if (i <= a.end && j <= b.end && this.synced(i, j)) return [i, j];
      }
    }
    for (let k = NEAR + 1; k <= FAR; k++) {
      if (j0 + k <= b.end && this.synced(i0, j0 + k)) return [i0, j0 + k];
      if (i0 + k <= a.end && this.synced(i0 + k, j0)) return [i0 + k, j0];
      if (j0 + k > b.end && i0 + k > a.end) break;
    }
    return undefined;
  }
}
