import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bracketBalance } from '../../src/edit/sanity-check.js';

/** Every character looked at: the definition. */
function reference(text: string, from: number, to: number): number {
  let n = 0;
  for (const c of text.slice(from, to)) {
    if ('([{'.includes(c)) n++;
    else if (')]}'.includes(c)) n--;
  }
  return n;
}

describe('bracketBalance', () => {
  it('counts openers minus closers of any range, sparse or dense with brackets', () => {
    // From no brackets at all to nothing but brackets: both the search and the scan are taken.
    const char = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('(', ')', '[', ']', '{', '}') },
      { weight: 4, arbitrary: fc.string({ maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constantFrom('\n', '😀', '（', '⦃', 'x'.repeat(40)) },
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 200 }), fc.nat(), fc.nat(), (pieces, a, b) => {
        const text = pieces.join('');
        const from = text.length ? a % (text.length + 1) : 0;
        const to = from + (text.length - from ? b % (text.length - from + 1) : 0);
        expect(bracketBalance(text, from, to)).toBe(reference(text, from, to));
        expect(bracketBalance(text)).toBe(reference(text, 0, text.length));
      }),
      { numRuns: 2000 },
    );
  });

  it('looks only inside the range: a small range of a big text costs the range', () => {
    const text = `${'('.repeat(10)}${'x'.repeat(2_000_000)}${')'.repeat(3)}`;
    expect(bracketBalance(text, 5, 20)).toBe(5);
    expect(bracketBalance(text, text.length - 2, text.length)).toBe(-2);
    expect(bracketBalance(text)).toBe(7);
  });
});
