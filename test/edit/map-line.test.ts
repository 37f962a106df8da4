import { diffArrays } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keptRun, mapLine } from '../../src/edit/map-line.js';
import { seededRandom } from '../helpers/seeded-rng.js';

const h = (...xs: number[]) => Uint32Array.from(xs);

describe('mapLine', () => {
  it('follows a line through insertions, deletions and edits, and reports an edited or deleted one', () => {
    const before = h(1, 2, 3, 4, 5, 6);
    const after = h(1, 9, 9, 2, 3, 5, 7, 6);
    expect(mapLine(before, after, 0)).toBe(0); // common prefix
    expect(mapLine(before, after, 1)).toBe(3); // moved down by the insertion
    expect(mapLine(before, after, 2)).toBe(4);
    expect(mapLine(before, after, 3)).toBe('changed'); // deleted
    expect(mapLine(before, after, 4)).toBe(5);
    expect(mapLine(before, after, 5)).toBe(7); // common suffix
    // Twins: the one read is told apart by where it sits, not by its text.
    expect(mapLine(h(7, 1, 7, 1), h(7, 2, 7, 1), 1)).toBe('changed');
    expect(mapLine(h(7, 1, 7, 1), h(7, 2, 7, 1), 3)).toBe(3);
  });

  it('is an order-keeping matching of equal lines, as long as a minimal diff keeps on small texts', () => {
    const lines = fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 60 });
    fc.assert(
      fc.property(lines, lines, (b, a) => {
        const before = Uint32Array.from(b);
        const after = Uint32Array.from(a);
        let last = -1;
        let kept = 0;
        for (let i = 0; i < before.length; i++) {
          const m = mapLine(before, after, i);
          expect(m).not.toBeUndefined();
          if (typeof m !== 'number') continue;
          expect(after[m]).toBe(before[i]);
          expect(m).toBeGreaterThan(last);
          last = m;
          kept++;
        }
        const lcs = diffArrays(b, a)
          .filter((c) => !c.added && !c.removed)
          .reduce((n, c) => n + c.count, 0);
        expect(kept).toBe(lcs);
      }),
      { numRuns: 300 },
    );
  });

  it('keptRun gives the kept stretch holding a line, equal on both sides, and its neighbours', () => {
    const lines = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 40 });
    fc.assert(
      fc.property(lines, lines, (b, a) => {
        const before = Uint32Array.from(b);
        const after = Uint32Array.from(a);
        for (let i = 0; i < before.length; i++) {
          const m = mapLine(before, after, i);
          const run = keptRun(before, after, i);
          if (typeof m !== 'number') {
            expect(run).toBeUndefined();
            continue;
          }
          expect(run).toBeDefined();
          const r = run!;
          expect(i >= r.readFrom && i < r.readTo).toBe(true);
          expect(r.curFrom + (i - r.readFrom)).toBe(m);
          expect(Array.from(after.subarray(r.curFrom, r.curTo))).toEqual(
            Array.from(before.subarray(r.readFrom, r.readTo)),
          );
          // What sits around it is what the diff removed and inserted there.
          expect(r.readFrom - r.removedBefore).toBeGreaterThanOrEqual(0);
          expect(r.curFrom - r.insertedBefore).toBeGreaterThanOrEqual(0);
          expect(r.readTo + r.removedAfter).toBeLessThanOrEqual(before.length);
          expect(r.curTo + r.insertedAfter).toBeLessThanOrEqual(after.length);
          for (let k = 1; k <= r.removedBefore; k++)
            expect(mapLine(before, after, r.readFrom - k)).toBe('changed');
          for (let k = 0; k < r.removedAfter; k++)
            expect(mapLine(before, after, r.readTo + k)).toBe('changed');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('maps every surviving line of a 200k-line file through thousands of scattered edits', () => {
    const rand = seededRandom(26);
    const n = 200_000;
    // Source-like: most lines unique, some repeated (braces, blank lines).
    const before = Uint32Array.from({ length: n }, (_, i) => (i % 7 === 3 ? 1 : i % 11 === 5 ? 2 : 1000 + i));
    const where: number[] = []; // where[i] = line i's place after the edits, -1 when edited or deleted
    const out: number[] = [];
    let fresh = 10_000_000;
    for (let i = 0; i < n; i++) {
      const r = rand();
      if (r < 0.01) for (let k = 0; k < 3; k++) out.push(fresh++); // inserted lines
      if (r > 0.99) {
        where.push(-1); // deleted
        continue;
      }
      if (r > 0.98 && before[i]! >= 1000) {
        where.push(-1);
        out.push(fresh++); // edited
        continue;
      }
      where.push(out.length);
      out.push(before[i]!);
    }
    const after = Uint32Array.from(out);
    const wrong: string[] = [];
    for (let i = 0; i < n; i++) {
      const m = mapLine(before, after, i);
      // A unique line must land where it went; a repeated one on an equal line.
      const expected = before[i]! < 1000 ? m : where[i] === -1 ? 'changed' : where[i];
      if (m === undefined || m !== expected || (typeof m === 'number' && after[m] !== before[i]))
        wrong.push(`line ${i}: ${m} (expected ${expected})`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
