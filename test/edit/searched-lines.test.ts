import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchedLines } from '../../src/edit/searched-lines.js';

/** git's bogosqrt. */
function bogosqrt(n: number): number {
  let b = 1;
  for (let m = n; m > 0; m = Math.floor(m / 4)) b *= 2;
  return b;
}

/**
 * xdiff's xdl_cleanup_records and xdl_clean_mmatch, written as plainly as git's loops: 0 a
 * line with no match on the other side, 2 one with at least min(bogosqrt(lines), 1024), 1
 * the rest; a 2 is left out when runs of 0s and 2s on both sides of it hold more than four
 * 0s per 2 (git counts the line itself in both runs).
 */
function reference(X: number[], other: number[]): number[] {
  const limit = Math.min(bogosqrt(X.length), 1024);
  const occurrences = new Map<number, number>();
  for (const y of other) occurrences.set(y, (occurrences.get(y) ?? 0) + 1);
  const dis = X.map((x) => {
    const n = occurrences.get(x) ?? 0;
    return n === 0 ? 0 : n >= limit ? 2 : 1;
  });
  const mmatch = (i: number) => {
    const s = Math.max(0, i - 100);
    const e = Math.min(dis.length - 1, i + 100);
    let rdis0 = 0;
    let rpdis0 = 1;
    for (let r = 1; i - r >= s; r++) {
      if (dis[i - r] === 0) rdis0++;
      else if (dis[i - r] === 2) rpdis0++;
      else break;
    }
    if (rdis0 === 0) return false;
    let rdis1 = 0;
    let rpdis1 = 1;
    for (let r = 1; i + r <= e; r++) {
      if (dis[i + r] === 0) rdis1++;
      else if (dis[i + r] === 2) rpdis1++;
      else break;
    }
    if (rdis1 === 0) return false;
    rdis1 += rdis0;
    rpdis1 += rpdis0;
    return rpdis1 * 4 < rpdis1 + rdis1;
  };
  return dis.map((d, i) => (d === 1 || (d === 2 && !mmatch(i)) ? 1 : 0));
}

const kept = (marks: Uint8Array | undefined, n: number) => (marks ? Array.from(marks) : Array(n).fill(1));

describe('searchedLines', () => {
  it("leaves out exactly the lines git's xdiff leaves out before its search", () => {
    // Ids from a few very common ones (a `}`, a blank line), some rarer ones and ones only one side has.
    const sequence = (offset: number) =>
      fc.array(
        fc.oneof(
          { weight: 3, arbitrary: fc.integer({ min: 0, max: 2 }) },
          { weight: 2, arbitrary: fc.integer({ min: 3, max: 400 }) },
          { weight: 1, arbitrary: fc.integer({ min: offset, max: offset + 400 }) },
        ),
        { maxLength: 3000, size: 'max' },
      );
    fc.assert(
      fc.property(sequence(1000), sequence(2000), (a, b) => {
        const counts: [Int32Array, Int32Array] = [new Int32Array(2401), new Int32Array(2401)];
        const [keptA, keptB] = searchedLines(Int32Array.from(a), Int32Array.from(b), counts, true);
        expect(kept(keptA, a.length)).toEqual(reference(a, b));
        expect(kept(keptB, b.length)).toEqual(reference(b, a));
        // The scratch counts are handed back zeroed.
        expect(counts[0].every((x) => x === 0) && counts[1].every((x) => x === 0)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves common lines in without dropCommon: only lines the other side lacks go', () => {
    const a = [0, 9, 0, 9, 0, 5, 0];
    const b = [0, 8, 0, 8, 0, 5, 0];
    const [keptA, keptB] = searchedLines(
      Int32Array.from(a),
      Int32Array.from(b),
      [new Int32Array(10), new Int32Array(10)],
      false,
    );
    expect(kept(keptA, a.length)).toEqual([1, 0, 1, 0, 1, 1, 1]);
    expect(kept(keptB, b.length)).toEqual([1, 0, 1, 0, 1, 1, 1]);
  });
});
