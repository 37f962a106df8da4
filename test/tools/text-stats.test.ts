import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundaryAtOrBefore } from '../../src/text/text-slices.js';
import { firstLines, withLongLinesCut } from '../../src/tools/text-stats.js';

// Texts of short and long lines, astral characters (surrogate pairs) included.
const piece = fc.constantFrom('a', 'é', '😀', '\n', '\r\n', 'long line '.repeat(20), '𝒳𝒴');
const text = fc.array(piece, { maxLength: 80 }).map((p) => p.join(''));
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('firstLines', () => {
  it('is a prefix of at most maxLines lines and maxChars characters, whole characters only', () => {
    fc.assert(
      fc.property(
        text,
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 400 }),
        (t, lines, chars) => {
          const { text: shown, truncated } = firstLines(t, lines, chars);
          expect(t.startsWith(shown)).toBe(true);
          expect(truncated).toBe(shown.length < t.length);
          expect(shown.length).toBeLessThanOrEqual(chars);
          expect(shown.split('\n').length - (shown.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(lines);
          expect(LONE.test(shown)).toBe(false);
          // Nothing is left out that both caps allow: the next line, or the next character of a cut line.
          if (truncated && !shown.endsWith('\n') && shown.length > 0) {
            expect(shown.length + (t.codePointAt(shown.length)! > 0xffff ? 2 : 1)).toBeGreaterThan(chars);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('without a character cap, keeps the first lines whole', () => {
    expect(firstLines('a\nb\nc\n', 2)).toEqual({ text: 'a\nb\n', truncated: true });
    expect(firstLines('a\nb', 2)).toEqual({ text: 'a\nb', truncated: false });
  });
});

describe('withLongLinesCut', () => {
  it('cuts only lines longer than the cap, between characters, and counts what it left out', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 300 }), (t, max) => {
        const out = withLongLinesCut(t, max).split('\n');
        const lines = t.split('\n');
        expect(out.length).toBe(lines.length);
        lines.forEach((line, i) => {
          if (line.length <= max) expect(out[i]).toBe(line);
          else {
            const kept = boundaryAtOrBefore(line, max);
            expect(out[i]).toBe(
              `${line.slice(0, kept)} [… ${(line.length - kept).toLocaleString('en')} more characters]`,
            );
            expect(LONE.test(out[i]!)).toBe(false);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});
