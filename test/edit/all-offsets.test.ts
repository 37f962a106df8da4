import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allOffsets } from '../../src/edit/all-offsets.js';

/** The definition: every index where the needle starts, overlapping ones included. */
function naive(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + needle.length <= haystack.length; i++) if (haystack.startsWith(needle, i)) out.push(i);
  return out;
}

// Few distinct pieces, so long needles repeat, overlap and share their words with the text;
// words are rare (the rare-word way is taken) or not (the plain search is).
const piece = fc.oneof(
  { arbitrary: fc.constantFrom('}', '\n', ' ', 'x', '\t', 'é'), weight: 30 },
  { arbitrary: fc.constantFrom('done();', 'abc', 'abcd', 'abc\n'), weight: 1 },
);
const text = (max: number) => fc.array(piece, { maxLength: max, size: 'max' }).map((p) => p.join(''));

describe('allOffsets', () => {
  it('finds exactly the occurrences the definition does, long needles (through a rare word) included', () => {
    fc.assert(
      fc.property(text(400), fc.nat(), fc.integer({ min: 1, max: 300 }), text(60), (hay, a, len, extra) => {
        // Needles cut from the text (found at least once) and made up (maybe nowhere).
        const from = hay.length === 0 ? 0 : a % hay.length;
        const cut = hay.slice(from, from + len);
        for (const needle of [cut, cut + extra, extra + cut]) {
          if (needle === '') continue;
          expect(allOffsets(hay, needle)).toEqual(naive(hay, needle));
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('a file of } lines and a long request of } lines ending elsewhere', () => {
    const lines = Array.from({ length: 5_000 }, () => '}');
    lines[2_500] = 'done(); ';
    const hay = `${lines.join('\n')}\n`;
    const needle = `${Array.from({ length: 500 }, () => '}').join('\n')}\ndone(); `;
    expect(allOffsets(hay, needle)).toEqual([hay.indexOf(needle)]);
    expect(allOffsets(hay, needle.trimEnd().replace('done();', 'done();x'))).toEqual([]);
  });
});
