import { diffArrays } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedMyers, costBound } from '../../src/edit/bounded-myers.js';
import { seededRandom } from '../helpers/seeded-rng.js';

/** The marks for a, b, with what each side keeps (must be the same sequence for the diff to be exact). */
function marks(a: ArrayLike<number>, b: ArrayLike<number>) {
  const removed = new Uint8Array(a.length);
  const added = new Uint8Array(b.length);
  boundedMyers(Int32Array.from(a), Int32Array.from(b), removed, added);
  const keptA = Array.from(a).filter((_, i) => removed[i] === 0);
  const keptB = Array.from(b).filter((_, j) => added[j] === 0);
  const edits = removed.reduce((s, x) => s + x, 0) + added.reduce((s, x) => s + x, 0);
  return { keptA, keptB, edits };
}

function minimalEdits(a: number[], b: number[]): number {
  let n = 0;
  for (const c of diffArrays(a, b)) if (c.added || c.removed) n += c.count ?? 0;
  return n;
}

describe('boundedMyers', () => {
  it('is exact and minimal below its cost bound (any small sequences over a few symbols)', () => {
    const seq = fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 80 });
    fc.assert(
      fc.property(seq, seq, (a, b) => {
        const m = marks(a, b);
        expect(m.keptA).toEqual(m.keptB);
        expect(m.edits).toBe(minimalEdits(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('stays exact and near the edits made on long low-entropy sequences with dense edits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }), // period
        fc.integer({ min: 1, max: 25 }), // percent of lines edited
        fc.integer({ min: 20_000, max: 120_000 }),
        fc.integer(),
        (period, percent, n, seed) => {
          const r = seededRandom(seed);
          const a = Array.from({ length: n }, (_, i) => i % period);
          let made = 0;
          const b = a.flatMap((x) => {
            const t = r() * 100;
            if (t >= percent) return [x];
            made++;
            return t < percent / 2 ? [] : [period + Math.floor(r() * 3), x];
          });
          const m = marks(a, b);
          expect(m.keptA).toEqual(m.keptB);
          // Each edit made costs one line removed or added; the search may take a few more, not many.
          expect(m.edits).toBeLessThanOrEqual(1.5 * made + 10);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('ends at the deadline with an exact diff (the rest marked as replaced)', () => {
    const a = Array.from({ length: 50_000 }, (_, i) => i % 3);
    const b = a.filter((_, i) => i % 7 !== 0);
    const removed = new Uint8Array(a.length);
    const added = new Uint8Array(b.length);
    let polls = 0;
    boundedMyers(Int32Array.from(a), Int32Array.from(b), removed, added, () => ++polls > 3);
    expect(a.filter((_, i) => removed[i] === 0)).toEqual(b.filter((_, j) => added[j] === 0));
  });

  it('reports its work in steps, the same for the same input every time (what its budget counts)', () => {
    const r = seededRandom(11);
    const a = Array.from({ length: 20_000 }, () => Math.floor(r() * 3));
    const b = a.filter(() => r() > 0.2);
    const run = () => {
      const removed = new Uint8Array(a.length);
      const added = new Uint8Array(b.length);
      const steps: number[] = [];
      boundedMyers(Int32Array.from(a), Int32Array.from(b), removed, added, (n) => {
        steps.push(n);
        return false;
      });
      return { steps: steps.reduce((x, y) => x + y, 0), polls: steps.length, removed: removed.join('') };
    };
    const first = run();
    expect(first.steps).toBeGreaterThan(a.length); // each line compared at least once
    expect(run()).toEqual(first);
  });

  it("splits at git's cost bound: 2^(⌊log₄ diagonals⌋ + 1), at least 256", () => {
    for (const [diagonals, bound] of [
      [3, 256],
      [65_535, 256],
      [65_536, 512],
      [99_038, 512],
      [262_143, 512],
      [262_144, 1024],
      [2_000_003, 2048],
    ] as const)
      expect(costBound(diagonals), String(diagonals)).toBe(bound);
  });
});
