import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasKeyAt, lineKey, MATCH_LEVELS } from '../../src/edit/normalize-line.js';

// Every kind of character the keys treat apart: whitespace of each kind, U+FEFF, typography, plain text.
const piece = fc.constantFrom(
  'a',
  'x y',
  ' ',
  '\t',
  '\u00a0',
  '\u2003',
  '\u3000',
  '\u2028',
  '\v',
  '\r',
  '\ufeff',
  '\u201c',
  '"',
  '\u2014',
  '-',
  'é',
  '\ud83d\ude00',
);
const line = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));

describe('hasKeyAt', () => {
  it('says what comparing lineKey of the sliced line says, at every level, inside a longer text', () => {
    fc.assert(
      fc.property(line, line, line, line, (before, text, after, other) => {
        const all = `${before}\n${text}\n${after}`;
        const from = before.length + 1;
        const to = from + text.length;
        for (const level of MATCH_LEVELS)
          for (const key of [lineKey(text, level), lineKey(other, level), other, `${lineKey(text, level)} `])
            expect(hasKeyAt(all, from, to, key, level), `${level} ${JSON.stringify([text, key])}`).toBe(
              lineKey(text, level) === key,
            );
      }),
      { numRuns: 3000 },
    );
  });
});
