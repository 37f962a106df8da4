import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gitDiff, gnuDiff, gnuPatch, patchFile } from './rt51-helpers.js';

// Line ends through patch_file, over the whole class a diff of the file's bytes can carry:
// every line its own end (LF or CRLF), a last line without one, and a last line whose text
// ends with a lone CR (`diff` writes it as "b\r" + "\ No newline at end of file"). GNU patch
// is the oracle, with the documented rule on top: in a file that has line ends, a new line
// ends as the file's do, so there the new text is generated with the file's convention; a
// file with none yet (empty, or one unterminated line) takes each line's end as written.
const WORDS = ['a', 'b', 'c', '', ' a', 'a ', '}', 'x y', '-a', '+a', '\\ x'];
type End = '\n' | '\r\n' | '' | '\r';
interface Shape {
  lines: string[];
  ends: Array<'\n' | '\r\n'>;
  /** How the last line ends: its own end, none, or none with a CR as its text. */
  last: End;
}
const shape = (ends: fc.Arbitrary<'\n' | '\r\n'>, minLength = 0): fc.Arbitrary<Shape> =>
  fc.record({
    lines: fc.array(fc.constantFrom(...WORDS), { minLength, maxLength: 8 }),
    ends: fc.array(ends, { minLength: 8, maxLength: 8 }),
    last: fc.constantFrom<End>('\n', '\r\n', '', '\r'),
  });
const build = (s: Shape): string =>
  s.lines
    .map((l, i) => {
      if (i < s.lines.length - 1) return l + s.ends[i]!;
      return s.last === '\n' || s.last === '\r\n' ? l + s.ends[i]! : l + s.last;
    })
    .join('');
const gens: Record<string, (a: string, b: string) => string> = {
  u: (a, b) => gnuDiff(a, b, ['-u']),
  u0: (a, b) => gnuDiff(a, b, ['-U0']),
  git: (a, b) => gitDiff(a, b),
  js: (a, b) => createTwoFilesPatch('a', 'b', a, b),
};

async function agreesWithGnu(oldT: string, newT: string, g: string): Promise<void> {
  if (oldT === newT) return;
  const diff = gens[g]!(oldT, newT);
  const want = gnuPatch(oldT, diff);
  if (want !== newT) return; // a diff GNU patch itself does not round-trip says nothing here
  const r = await patchFile(oldT, diff, true);
  if (!r.ok) {
    // Refusing is allowed (clearly, nothing changed); writing other bytes is not.
    expect(r.code).toBe('invalid_diff');
    expect(r.after).toBe(oldT);
    return;
  }
  expect(JSON.stringify(r.after)).toBe(JSON.stringify(newT));
  // What the person was shown is what was written.
  expect(gnuPatch(oldT, r.unifiedDiff!)).toBe(r.after);
}

describe('rt58: patch_file writes the line ends a diff of the bytes asks for', () => {
  it('a file with uniform line ends: new lines end as the file does; the last line as the diff says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
        shape(fc.constant('\n'), 2),
        shape(fc.constant('\n'), 1),
        fc.constantFrom(...Object.keys(gens)),
        async (eol, o, n, g) => {
          const uniform = (s: Shape): Shape => ({
            ...s,
            ends: s.ends.map(() => eol),
            last: s.last === '\n' || s.last === '\r\n' ? eol : s.last,
          });
          const oldT = build(uniform(o));
          if (!oldT.includes('\n')) return;
          await agreesWithGnu(oldT, build(uniform(n)), g);
        },
      ),
      { numRuns: 150 },
    );
  }, 300_000);

  it('a file with no line end yet: every line ends as the diff wrote it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('', 'abc', 'abc\r', '\r', 'a b'),
        shape(fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), 1),
        fc.constantFrom(...Object.keys(gens)),
        async (oldT, n, g) => {
          await agreesWithGnu(oldT, build(n), g);
        },
      ),
      { numRuns: 150 },
    );
  }, 300_000);

  it('a mixed-end file: lines the diff does not touch keep their ends, a lone CR last line is text', async () => {
    await fc.assert(
      fc.asyncProperty(
        shape(fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), 3),
        fc.nat(7),
        fc.constantFrom<End>('', '\r'),
        fc.constantFrom(...Object.keys(gens)),
        async (o, at, last, g) => {
          const oldT = build(o);
          // Change only how the file ends: the last line's text or its end (CR, none).
          const k = Math.min(at, o.lines.length - 1);
          const n: Shape = { ...o, lines: o.lines.map((l, i) => (i === k ? `${l}Z` : l)), last };
          await agreesWithGnu(oldT, build(n), g);
        },
      ),
      { numRuns: 150 },
    );
  }, 300_000);

  it('a mixed-end file and a diff of the bytes: every line ends as the diff wrote it', async () => {
    const ends = fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n');
    await fc.assert(
      fc.asyncProperty(
        shape(ends, 3),
        shape(ends, 1),
        fc.constantFrom(...Object.keys(gens)),
        async (o, n, g) => {
          const oldT = build(o);
          if (!/(?:^|[^\r])\n/.test(oldT) || !oldT.includes('\r\n')) return;
          await agreesWithGnu(oldT, build(n), g);
        },
      ),
      { numRuns: 200 },
    );
  }, 300_000);
});
