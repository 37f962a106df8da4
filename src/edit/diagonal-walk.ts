import type { LinesWithEnds } from './anchored-diff.js';
import { commonLength } from './common-length.js';

/**
 * Both sides count as together again after a change when this many lines in a row are
 * equal and they hold at least SYNC_CHARS characters: in a file of `}` and blank
 * lines three equal lines happen anywhere by chance, 64 characters in a row do not.
 */
const SYNC = 3;
const SYNC_CHARS = 64;
/** Lines a sync check looks at, at most (a run of empty lines is one character each). */
const SYNC_MAX_LINES = 256;
/** A change this long (old + new lines) or shorter is found by trying every split of it. */
const NEAR = 64;
/** An insertion or a deletion up to this long is found by scanning the other side. */
const FAR = 8192;

/**
 * The equal stretches of two texts that differ here and there (the usual edit of
 * a big file), found by walking both in step: the longest equal stretch from the
 * current lines is found by comparing the texts natively, a chunk at a time, and
 * cut back to whole lines, so equal lines cost no per-line work at all. After a
 * change the walk looks for the nearest point where both sides agree again (see
 * resync), first trying every split of a short change, then scanning for the end
 * of a long insertion or deletion. What lies between is a changed region,
 * left to an exact diff; a change the walk cannot see past ends the walk, and the
 * rest is one region.
 */
export class DiagonalWalk {
  constructor(
    private readonly a: LinesWithEnds,
    private readonly b: LinesWithEnds,
    private readonly a0: number,
    private readonly a1: number,
    private readonly b0: number,
    private readonly b1: number,
  ) {}

  /**
   * The changed regions [a0, a1, b0, b1], in order; `same(n)` is called with each
   * run of equal lines before the region after it (and after the last one).
   */
  *changed(same: (n: number) => void): Generator<[number, number, number, number]> {
    let i = this.a0;
    let j = this.b0;
    for (;;) {
      const n = this.equalRun(i, j);
      i += n;
      j += n;
      same(n);
      if (i === this.a1 || j === this.b1) break;
      const next = this.resync(i, j);
      if (next === undefined) break;
      yield [i, next[0], j, next[1]];
      [i, j] = next;
    }
    if (i < this.a1 || j < this.b1) yield [i, this.a1, j, this.b1];
  }

  /** How many lines from a[i], b[j] on are equal (terminators included). */
  private equalRun(i: number, j: number): number {
    const A = this.a.starts;
    const B = this.b.starts;
    const from = A[i]!;
    const bFrom = B[j]!;
    const chars = commonLength(this.a.text, from, A[this.a1]!, this.b.text, bFrom, B[this.b1]!);
    // Lines of a that lie wholly in the equal stretch: the last line start at or before its end.
    let lo = i;
    let hi = this.a1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (A[mid]! - from <= chars) lo = mid;
      else hi = mid - 1;
    }
    let n = Math.min(lo - i, this.b1 - j);
    // Equal characters put newlines in the same places, but a last line without a newline
    // may end in a only: the line must end at the same place on both sides.
    while (n > 0 && B[j + n]! - bFrom !== A[i + n]! - from) n--;
    return n;
  }

  private equal(i: number, j: number): boolean {
    return sameLine(this.a, this.b, i, j);
  }

  /**
   * Whether both sides agree again from a[i], b[j]: SYNC equal lines (holding
   * SYNC_CHARS characters when `strict`), or equal lines up to both ends.
   */
  private synced(i: number, j: number, strict: boolean): boolean {
    const A = this.a.starts;
    for (let k = 0; k < SYNC_MAX_LINES; k++) {
      if (k >= SYNC && (!strict || A[i + k]! - A[i]! >= SYNC_CHARS)) return true;
      if (i + k === this.a1 || j + k === this.b1) return i + k === this.a1 && j + k === this.b1;
      if (!this.equal(i + k, j + k)) return false;
    }
    return false;
  }

  /**
   * The nearest point after a change at a[i0], b[j0] where both sides agree again.
   * Changes crowded closer than a strict sync can fit (a file of `}` lines edited
   * every few lines) are taken up again at the nearest SYNC equal lines: the diff
   * stays exact, at worst a little longer there than the shortest.
   */
  private resync(i0: number, j0: number): [number, number] | undefined {
    return this.nearest(i0, j0, NEAR, true) ?? this.far(i0, j0) ?? this.nearest(i0, j0, NEAR, false);
  }

  private nearest(i0: number, j0: number, reach: number, strict: boolean): [number, number] | undefined {
    for (let d = 1; d <= reach; d++) {
      for (let x = 0; x <= d; x++) {
        const i = i0 + x;
        const j = j0 + d - x;
        if (i <= this.a1 && j <= this.b1 && this.synced(i, j, strict)) return [i, j];
      }
    }
    return undefined;
  }

  /** The end of a long insertion or deletion starting at a[i0], b[j0]. */
  private far(i0: number, j0: number): [number, number] | undefined {
    for (let k = NEAR + 1; k <= FAR; k++) {
      if (j0 + k <= this.b1 && this.synced(i0, j0 + k, true)) return [i0, j0 + k];
      if (i0 + k <= this.a1 && this.synced(i0 + k, j0, true)) return [i0 + k, j0];
      if (j0 + k > this.b1 && i0 + k > this.a1) break;
    }
    return undefined;
  }
}

/** Whether line i of `a` and line j of `b` are the same, terminators included. */
export function sameLine(a: LinesWithEnds, b: LinesWithEnds, i: number, j: number): boolean {
  const A = a.starts;
  const B = b.starts;
  const length = A[i + 1]! - A[i]!;
  if (B[j + 1]! - B[j]! !== length) return false;
  return commonLength(a.text, A[i]!, A[i + 1]!, b.text, B[j]!, B[j + 1]!) === length;
}
