import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reindent } from '../../src/edit/match-cascade.js';

// Re-indenting new lines to the file keeps their place among the matched lines: a line the request
// indents deeper than a matched line is deeper than that line in the file, shallower stays
// shallower, level stays level — whatever steps the file uses (regular, mixed, scaled).

const widthOf = (line: string) => line.length - line.trimStart().length;

describe('reindent keeps every new line in order with the matched lines', () => {
  it('for any rising map of matched indentations and any new lines', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(12), { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 2, max: 6 }), { minLength: 5, maxLength: 5 }),
        fc.nat(6),
        fc.array(fc.nat(16), { minLength: 1, maxLength: 8 }),
        (modelWidths, gaps, fileBase, newWidths) => {
          const from = [...modelWidths].sort((a, b) => a - b);
          // The file's widths rise with the request's, by any steps (room for a column between two).
          const to: number[] = [];
          for (let i = 0; i < from.length; i++) to.push(i === 0 ? fileBase : to[i - 1]! + gaps[i]!);
          const needle = from.map((w, i) => `${' '.repeat(w)}line${i}`);
          const window = to.map((w, i) => `${' '.repeat(w)}line${i}`);
          const replacement = newWidths.map((w, j) => `${' '.repeat(w)}new${j}`);
          const out = reindent(replacement, needle, window);
          newWidths.forEach((w, j) => {
            // Shallower than every matched line where the file has them at column 0: no room.
            if (w < from[0]! && to[0] === 0) return;
            const got = widthOf(out[j]!);
            from.forEach((m, i) => {
              expect(Math.sign(got - to[i]!), JSON.stringify({ from, to, w, got })).toBe(Math.sign(w - m));
            });
          });
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
