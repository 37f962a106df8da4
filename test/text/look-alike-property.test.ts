import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLookAlike, lookAlikeWarnings } from '../../src/text/look-alikes.js';

// Every non-ASCII letter or number whose NFKC/NFKD fold is ASCII, across the whole code space.
const folding: string[] = [];
for (let cp = 0x80; cp <= 0x1ffff; cp++) {
  const ch = String.fromCodePoint(cp);
  if (!/[\p{L}\p{Nl}]/u.test(ch)) continue;
  if (/^[A-Za-z]+$/.test(ch.normalize('NFKC')) || /^[A-Za-z]+$/.test(ch.normalize('NFKD'))) folding.push(ch);
}
const blocks = [
  [0x01c0, 0x01c3],
  [0x0250, 0x02af],
  [0x1d00, 0x1d7f],
  [0xa730, 0xa7ff],
  [0x13a0, 0x13f5],
  [0xa4d0, 0xa4f7],
]
  .flatMap(([a, b]) => Array.from({ length: b! - a! + 1 }, (_, i) => String.fromCodePoint(a! + i)))
  .filter((ch) => /\p{L}/u.test(ch));
const asciiWord = fc.stringMatching(/^[a-z]{1,6}$/);

describe('look-alike letters by property', () => {
  it('a letter that folds to ASCII, or from a look-alike block, is marked in a word of an ASCII line', () => {
    expect(folding.length).toBeGreaterThan(500);
    fc.assert(
      fc.property(fc.constantFrom(...folding, ...blocks), asciiWord, asciiWord, (ch, pre, post) => {
        expect(isLookAlike(ch)).toBe(true);
        expect(lookAlikeWarnings([`host = "${pre}${ch}${post}.com"`]).join('\n')).toMatch(
          /look-alike|mixed scripts/,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('ordinary accented Latin in prose is not marked', () => {
    const accented = [...'éèêëàâäçîïôöùûüÿñßøåæœÉÈÀÇÖÜÑ'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(asciiWord, fc.constantFrom(...accented), asciiWord), {
          minLength: 1,
          maxLength: 8,
        }),
        (words) => {
          const line = words.map(([a, c, b]) => `${a}${c}${b}`).join(' ');
          expect(lookAlikeWarnings([line])).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
    expect(lookAlikeWarnings(['Le café est très naïve, über schön, Straße.'])).toEqual([]);
    expect(lookAlikeWarnings(['Привет, мир — обычный текст.'])).toEqual([]);
  });
});
