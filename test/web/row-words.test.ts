import { diffWordsWithSpace } from 'diff';
import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { diffRows } from '../../src/react/diff-rows.js';
import { DiffView } from '../../src/react/index.js';
import { LONG_LINE, MAX_WORD_EDITS, type WordPiece, wordsOf } from '../../src/react/row-words.js';

/** The pieces the card draws for a removed line and its added partner. */
function pair(oldLine: string, newLine: string): [WordPiece[] | undefined, WordPiece[] | undefined] {
  const rows = diffRows(`@@ -1 +1 @@\n-${oldLine}\n+${newLine}\n`);
  return [wordsOf(rows[1]!), wordsOf(rows[2]!)];
}

/** The highlight before it was bounded: jsdiff's whole word diff of the two lines. */
function unbounded(oldLine: string, newLine: string): [WordPiece[], WordPiece[]] {
  const del: WordPiece[] = [];
  const add: WordPiece[] = [];
  for (const p of diffWordsWithSpace(oldLine, newLine)) {
    if (!p.added) del.push({ text: p.value, changed: p.removed });
    if (!p.removed) add.push({ text: p.value, changed: p.added });
  }
  return [del, add];
}

const text = (pieces: WordPiece[]) => pieces.map((p) => p.text).join('');
const kept = (pieces: WordPiece[]) => text(pieces.filter((p) => !p.changed && !p.marker));

/** A line that is read whole: its pieces spell it, and only changed pieces are marked. */
function expectSpelled(oldLine: string, newLine: string, del: WordPiece[], add: WordPiece[]) {
  expect(text(del)).toBe(oldLine);
  expect(text(add)).toBe(newLine);
  // What is not marked is common to both lines, in the same order: a mark sits only where they differ.
  expect(kept(del)).toBe(kept(add));
}

const token = fc.constantFrom('a', 'b', 'foo', 'bar', 'x1', 'é', '字', '😀', ' ', '  ', '\t', '.', '(', ')');
const line = (maxLength: number) =>
  fc.array(token, { maxLength, size: 'max' }).map((t) =>
    t
      .join('')
      .slice(0, maxLength)
      .replace(/[\uD800-\uDBFF]$/, ''),
  );
const word = fc.stringMatching(/^[a-z]{1,8}$/);

describe('word highlights of a removed/added pair', () => {
  it('short pairs are marked exactly as the whole word diff marks them', () => {
    // Two lines of at most MAX_WORD_EDITS characters together can never need more edits than that.
    fc.assert(
      fc.property(line(MAX_WORD_EDITS / 2), line(MAX_WORD_EDITS / 2), (oldLine, newLine) => {
        const [del, add] = pair(oldLine, newLine);
        expect([del, add]).toEqual(unbounded(oldLine, newLine));
        expectSpelled(oldLine, newLine, del!, add!);
      }),
      { numRuns: 300 },
    );
  });

  it('similar long pairs (a few words replaced) are marked exactly as the whole word diff marks them', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 220 }),
        fc.array(fc.tuple(fc.nat(), word), { maxLength: 10 }),
        (words, edits) => {
          const oldLine = words.join(' ').slice(0, LONG_LINE);
          const changed = oldLine.split(' ');
          for (const [at, w] of edits) changed[at % changed.length] = w;
          const newLine = changed.join(' ').slice(0, LONG_LINE);
          const [del, add] = pair(oldLine, newLine);
          expect([del, add]).toEqual(unbounded(oldLine, newLine));
          expectSpelled(oldLine, newLine, del!, add!);
          if (oldLine !== newLine) expect(del!.some((p) => p.changed)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('unrelated lines of up to 2,000 characters are a whole-line change: no marks', () => {
    const a = 'alpha beta gamma delta '.repeat(86);
    const b = 'one two three four five six '.repeat(71);
    expect(a.length).toBeLessThanOrEqual(LONG_LINE);
    expect(pair(a, b)).toEqual([undefined, undefined]);
    const html = renderToStaticMarkup(
      createElement(DiffView, { unifiedDiff: `@@ -1 +1 @@\n-${a}\n+${b}\n` }),
    );
    expect(html).not.toContain('<mark');
    expect(html).toContain('alpha beta');
  });

  it('unrelated long lines keep their window and markers, with no marks', () => {
    const a = `${'s'.repeat(5000)}${'abc '.repeat(1500)}`;
    const b = `${'s'.repeat(5000)}${'xyz_'.repeat(1500)}`;
    const [del, add] = pair(a, b);
    for (const [pieces, whole] of [
      [del!, a],
      [add!, b],
    ] as const) {
      expect(pieces.some((p) => p.changed)).toBe(false);
      expect(pieces[0]).toMatchObject({ marker: true, text: '…4,800 more characters ' });
      const shown = text(pieces.filter((p) => !p.marker));
      expect(whole.slice(4800).startsWith(shown)).toBe(true);
      expect(pieces.at(-1)).toMatchObject({ marker: true });
    }
  });

  it('any pair of lines up to 10,000 characters: the pieces spell the window shown', () => {
    fc.assert(
      fc.property(line(10_000), line(10_000), (oldLine, newLine) => {
        const [del, add] = pair(oldLine, newLine);
        for (const [pieces, whole] of [
          [del, oldLine],
          [add, newLine],
        ] as const) {
          if (!pieces) continue; // drawn as the line itself
          const hidden = pieces
            .filter((p) => p.marker)
            .map((p) => Number(p.text.replace(/\D/g, '')))
            .reduce((x, y) => x + y, 0);
          const shown = text(pieces.filter((p) => !p.marker));
          expect(shown.length + hidden).toBe(whole.length);
          expect(whole).toContain(shown);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('the cost of a pair is bounded (rt39: it was quadratic in the line length)', () => {
  const unrelated = (seed: number, length: number) => {
    let s = '';
    for (let i = 0; s.length < length; i++) s += `w${((seed * 7919 + i * 104729) % 99991).toString(36)} `;
    return s.slice(0, length);
  };

  it('24 unrelated pairs of 2,000, 2,001 and 10,000 characters take well under 2 s in all', () => {
    // Unbounded, these took about 6 s (120 ms a word-diffed pair, 450 ms a character-diffed window).
    const started = performance.now();
    for (const length of [2_000, 2_001, 10_000])
      for (let i = 0; i < 8; i++) pair(unrelated(i, length), unrelated(i + 7_777_777, length));
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('any pair of lines up to 10,000 characters takes well under 250 ms', () => {
    const letters = fc.string({ unit: fc.constantFrom('a', 'b', ' '), maxLength: 10_000, size: 'max' });
    fc.assert(
      fc.property(fc.oneof(line(10_000), letters), fc.oneof(line(10_000), letters), (oldLine, newLine) => {
        const started = performance.now();
        pair(oldLine, newLine);
        expect(performance.now() - started).toBeLessThan(250);
      }),
      // A slow pair fails at once: shrinking would time every smaller pair again.
      { numRuns: 60, endOnFailure: true },
    );
  });
});
