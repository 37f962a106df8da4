import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  composeEdits,
  type LineSplice,
  lineSpliceOf,
  mapThroughEdits,
  withEdit,
} from '../../src/edit/edit-map.js';
import { LineTable } from '../../src/edit/line-table.js';

/** Applies one sorted splice list to lines, each new line given a fresh id (what an edit does). */
function apply(lines: readonly number[], splices: readonly LineSplice[], fresh: () => number): number[] {
  const out: number[] = [];
  let at = 0;
  for (const s of splices) {
    out.push(...lines.slice(at, s.start));
    for (let k = 0; k < s.count; k++) out.push(fresh());
    at = s.end;
  }
  out.push(...lines.slice(at));
  return out;
}

/** A sorted, non-overlapping splice list over `n` lines. */
const splicesOver = (n: number) =>
  fc.array(fc.tuple(fc.nat(n), fc.nat(3), fc.nat(3)), { maxLength: 4 }).map((raw) => {
    const sorted = raw
      .map(([start, len, count]) => ({ start, len, count }))
      .sort((a, b) => a.start - b.start);
    const out: LineSplice[] = [];
    let free = 0;
    for (const { start, len, count } of sorted) {
      const s = Math.max(start, free);
      if (s > n) break;
      const end = Math.min(n, s + len);
      if (end === s && count === 0) continue;
      // Two splices at one place would be one operation: keep them apart.
      if (out.length > 0 && s === out.at(-1)!.end && s === end) continue;
      out.push({ start: s, end, count });
      free = end === s ? s + 1 : end;
    }
    return out;
  });

describe('composeEdits', () => {
  it('every line maps through the composed list as through the edits, for any edits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        (n, seeds) => {
          // Build edits one after another, each over the version the last produced.
          let lines = Array.from({ length: n }, (_, i) => i);
          let next = n;
          const edits: LineSplice[][] = [];
          for (const seed of seeds) {
            const splices = fc.sample(splicesOver(lines.length), { seed, numRuns: 1 })[0]!;
            edits.push(splices);
            lines = apply(lines, splices, () => next++);
          }
          const composed = [composeEdits(edits)];
          for (let i = 0; i < n; i++) {
            const expected = lines.indexOf(i);
            expect(mapThroughEdits(i, edits)).toBe(expected === -1 ? undefined : expected);
            expect(mapThroughEdits(i, composed)).toBe(expected === -1 ? undefined : expected);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('withEdit never drops an edit: 1,000 edits later a line deleted first is still gone', () => {
    let edits: (readonly LineSplice[])[] = [[{ start: 2, end: 3, count: 0 }]];
    // Re-insert a line at that place, then make many edits below it.
    edits = withEdit(edits, [{ start: 2, end: 2, count: 1 }]);
    for (let k = 0; k < 1000; k++) edits = withEdit(edits, [{ start: 10, end: 11, count: 1 }]);
    expect(edits.length).toBeLessThanOrEqual(33);
    expect(mapThroughEdits(2, edits)).toBeUndefined();
    expect(mapThroughEdits(3, edits)).toBe(3);
    expect(mapThroughEdits(1, edits)).toBe(1);
  });
});

describe('lineSpliceOf', () => {
  const piece = fc.constantFrom('a', 'b', '\n', '\r\n', 'xy', '');
  it('every line outside the splice is the same line in the new text, at its mapped place', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
        fc.nat(),
        fc.nat(),
        fc.array(piece, { maxLength: 5 }).map((p) => p.join('')),
        (text, a, b, middle) => {
          const head = a % (text.length + 1);
          const tail = b % (text.length - head + 1);
          const next = text.slice(0, head) + middle + text.slice(text.length - tail);
          const s = lineSpliceOf(text, { head, middle, tail });
          const oldLines = new LineTable(text);
          const newLines = new LineTable(next);
          expect(newLines.count).toBe(oldLines.count - (s.end - s.start) + s.count);
          for (let i = 0; i < oldLines.count; i++) {
            const at = mapThroughEdits(i, [[s]]);
            if (at === undefined) {
              expect(i >= s.start && i < s.end).toBe(true);
              continue;
            }
            expect(newLines.line(at)).toBe(oldLines.line(i));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
