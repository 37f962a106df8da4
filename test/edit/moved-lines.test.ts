import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MovedLines, scanMoved } from '../../src/edit/moved-lines.js';

// Few distinct texts, so repeats, ambiguities and keyed partners are common.
const text = fc.constantFrom('a', 'a ', ' a', 'b', 'b  ', '', ' ', 'c');
const key = (s: string) => s.trim();

describe('moved lines: the scan and the maps answer the same', () => {
  it('for every old and new line, slipped or not, repeated or ambiguous', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 12 }),
        fc.array(text, { minLength: 1, maxLength: 6 }),
        (pairs, added) => {
          const needle = pairs.map(([n]) => n);
          const window = pairs.map(([, w]) => w);
          const slipped = needle.map((l, i) => l !== window[i]);
          const oldKey = (i: number) => key(needle[i]!);
          const maps = new MovedLines(needle, window, slipped, oldKey);
          for (const line of added)
            expect(scanMoved(needle, window, slipped, oldKey, line, key(line))).toBe(
              maps.find(line, key(line)),
            );
        },
      ),
      { numRuns: 2000 },
    );
  });
});
