import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinLines, splitLines } from '../../src/edit/text-format.js';

describe('joinLines', () => {
  it('is the concatenation of every line and its terminator, whatever the endings', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.constantFrom('\n', '\r\n', '')), { maxLength: 30 }),
        (pairs) => {
          const split = { lines: pairs.map(([l]) => l), terminators: pairs.map(([, t]) => t) };
          expect(joinLines(split)).toBe(pairs.map(([l, t]) => l + t).join(''));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives back the text splitLines split (LF, CRLF, mixed, with and without a final newline)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab\r\n]{0,40}$/), (text) => {
        expect(joinLines(splitLines(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
