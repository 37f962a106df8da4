/**
 * Lines grouped by a 32-bit value each (a hash of the line), so the lines with
 * a value, or with values in a range, are found in O(log n + hits) instead of a
 * pass over every line. A call that looks up many lines (a patch of thousands of
 * hunks, thousands of anchored line edits) would otherwise cost lines × lookups.
 *
 * The line numbers are sorted by value with a stable two-pass radix sort (16 bits
 * a pass, O(n)), so the lines sharing one value form one ascending run.
 */
export class HashGroups {
  /** Line numbers, ordered by (value, line). */
  private readonly order: Uint32Array;
  /** The values in that order. */
  private readonly sorted: Uint32Array;

  constructor(values: Uint32Array) {
    const n = values.length;
    const first = new Uint32Array(n);
    const order = new Uint32Array(n);
    // Low half first, then high half: each pass keeps the order of equal digits (stable).
    countingPass(values, identity(n), first, 0);
    countingPass(values, first, order, 16);
    const sorted = new Uint32Array(n);
    for (let i = 0; i < n; i++) sorted[i] = values[order[i]!]!;
    this.order = order;
    this.sorted = sorted;
  }

  /** The lines whose value is `value`, ascending. */
  linesWith(value: number): Uint32Array {
    const v = value >>> 0;
    return this.order.subarray(this.lowerBound(v), this.lowerBound(v + 1));
  }

  /** The lines whose value v has lo ≤ v ≤ hi (unsigned), ascending. */
  linesBetween(lo: number, hi: number): number[] {
    const start = this.lowerBound(lo);
    const end = this.lowerBound(hi + 1);
    const out = Array.from(this.order.subarray(start, end));
    // Each value's run is ascending; several values' runs together are not.
    if (end - start > 1 && this.sorted[start] !== this.sorted[end - 1]) out.sort((a, b) => a - b);
    return out;
  }

  /** The first position whose value is ≥ v (v may be 2^32: past every value). */
  private lowerBound(v: number): number {
    let a = 0;
    let b = this.sorted.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (this.sorted[m]! < v) a = m + 1;
      else b = m;
    }
    return a;
  }
}

function identity(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** One stable counting-sort pass of `from` (indices into values) into `to`, by 16 bits at `shift`. */
function countingPass(values: Uint32Array, from: Uint32Array, to: Uint32Array, shift: number): void {
  const counts = new Uint32Array(65_537);
  for (let i = 0; i < from.length; i++) counts[((values[from[i]!]! >>> shift) & 0xffff) + 1]!++;
  let sum = 0;
  for (let d = 0; d < counts.length; d++) {
    sum += counts[d]!;
    counts[d] = sum;
  }
  for (let i = 0; i < from.length; i++) {
    const line = from[i]!;
    to[counts[(values[line]! >>> shift) & 0xffff]!++] = line;
  }
}
