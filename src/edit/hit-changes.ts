import type { ChangeList, TextChange } from './bounded-diff.js';

/**
 * The places a replacement of every hit changed (hit k at `offsets[k]`, each
 * `oldLength` characters becoming `newLength`), read as TextChanges one at a time:
 * a replace_all of a million hits holds its offsets, not a million objects.
 */
export class HitChanges implements ChangeList {
  constructor(
    private readonly offsets: readonly number[],
    /** Characters before the offsets' text (a BOM kept apart). */
    private readonly shift: number,
    private readonly oldLength: number,
    private readonly newLength: number,
    private readonly from = 0,
    private readonly to = offsets.length,
  ) {}

  get length(): number {
    return this.to - this.from;
  }

  at(k: number): TextChange | undefined {
    const i = k < 0 ? k + this.length : k;
    if (i < 0 || i >= this.length) return undefined;
    const hit = this.from + i;
    const oldFrom = this.shift + this.offsets[hit]!;
    // Every hit before this one moved the text by the difference in length.
    const newFrom = oldFrom + hit * (this.newLength - this.oldLength);
    return { oldFrom, oldTo: oldFrom + this.oldLength, newFrom, newTo: newFrom + this.newLength };
  }

  /** Changes [start, end), both from the first (not from the end when negative, as an array's). */
  slice(start: number, end: number): HitChanges {
    const from = this.from + Math.max(0, start);
    const to = Math.min(this.to, this.from + end);
    return new HitChanges(this.offsets, this.shift, this.oldLength, this.newLength, from, Math.max(from, to));
  }
}
