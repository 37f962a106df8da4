import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addedBlock } from '../../src/edit/exact-patch.js';
import { fixUnifiedDiff } from '../../src/edit/fix-unified-diff.js';
import { splitLines, withoutBom } from '../../src/edit/text-format.js';
import { expectSplice } from '../helpers/splice.js';

// patch_file builds the corrected patch straight from the hunks when their added lines are
// written as they are (exact match, or trailing whitespace ignored and no added line standing
// for an old one) in lines ending like the file. These properties pin that this gives exactly
// what aligning every hunk line by line (the general path) gives.

const WORDS = [
  '',
  '}',
  '{',
  '  x = 1;',
  'x = 1;',
  '  return y;',
  'é ok',
  '(a)',
  'foo',
  'foo  ',
  '\tbar',
  'ü → ∀',
];
const line = fc.constantFrom(...WORDS);

/** A text in LF, CRLF or mixed endings, maybe with a BOM, maybe without a final newline. */
const textArb = fc
  .record({
    lines: fc.array(line, { maxLength: 30 }),
    endings: fc.constantFrom('lf', 'crlf', 'mixed'),
    mixed: fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({ lines, endings, mixed, bom, finalNewline }) => {
    const eol = (i: number) => (endings === 'crlf' || (endings === 'mixed' && mixed[i]) ? '\r\n' : '\n');
    let text = lines.map((l, i) => l + eol(i)).join('');
    if (!finalNewline && lines.length > 0) text = text.slice(0, -eol(lines.length - 1).length);
    return (bom ? '\uFEFF' : '') + text;
  });

/** Exact hunks at increasing places: context, removed and added lines (sometimes many), start and end included. */
function diffFor(text: string) {
  const lines = splitLines(withoutBom(text).body).lines;
  const added = fc.oneof(
    fc.array(line, { maxLength: 3 }),
    fc.integer({ min: 20, max: 80 }).map((n) => Array.from({ length: n }, (_, i) => `new ${i}`)),
  );
  const hunk = (at: number) =>
    fc
      .record({
        before: fc.nat(3),
        removed: fc.nat(2),
        after: fc.nat(3),
        added,
        bareBlank: fc.boolean(),
        // The model's copy of the old lines: exact, with trailing spaces added, or without the file's.
        drift: fc.constantFrom('none', 'none', 'add', 'strip'),
      })
      .map(({ before, removed, after, added, bareBlank, drift }) => {
        const copy = (l: string) => (drift === 'add' ? `${l} ` : drift === 'strip' ? l.trimEnd() : l);
        // Blank context lines sometimes lose their leading space, as models write them.
        const ctx = (l: string) => (bareBlank && l === '' ? '' : ` ${copy(l)}`);
        const end = Math.min(lines.length, at + removed);
        return [
          '@@ @@',
          ...lines.slice(Math.max(0, at - before), at).map(ctx),
          ...lines.slice(at, end).map((l) => `-${copy(l)}`),
          ...added.map((l) => `+${l}`),
          ...lines.slice(end, end + after).map(ctx),
        ].join('\n');
      });
  const starts = fc
    .uniqueArray(fc.nat(lines.length), { minLength: 1, maxLength: 4 })
    .map((xs) => xs.sort((a, b) => a - b));
  return starts.chain((xs) => fc.tuple(...xs.map(hunk))).map((hs) => `--- a/f\n+++ b/f\n${hs.join('\n')}\n`);
}

describe('patch_file fast path (added lines as written, lines ending like the file)', () => {
  it('gives exactly the file, hunks and refusals of the general path, with a strictly applicable corrected diff', () => {
    let fast = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        textArb.chain((text) => fc.tuple(fc.constant(text), diffFor(text))),
        ([text, diff]) => {
          runs++;
          const quick = fixUnifiedDiff(text, diff);
          const general = fixUnifiedDiff(text, diff, undefined, false);
          expectSplice(text, quick);
          expectSplice(text, general);
          if (!quick.ok || !general.ok) {
            expect(quick).toEqual(general);
            return;
          }
          const { correctedDiff, ...rest } = quick;
          const { correctedDiff: _, ...generalRest } = general;
          expect(rest).toEqual(generalRest);
          const body = withoutBom(text).body;
          expect(applyPatch(body, correctedDiff, { autoConvertLineEndings: false })).toBe(
            withoutBom(quick.newText).body,
          );
          // A lower bound of the fast path's cases: exact hunks in a file with one line ending.
          const uniform = !body.includes('\r') || body.split('\r\n').length === body.split('\n').length;
          if (quick.hunks.every((h) => h.level === 'exact') && uniform) fast++;
        },
      ),
      { numRuns: 400 },
    );
    // The generator must reach the fast path often, or this property says little.
    expect(fast).toBeGreaterThan(runs / 8);
  });

  it('converts big added blocks (byte loop, ASCII and not) exactly as line by line', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'inserted 1', '', 'é', '→ x', '\t}', '😀'), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 12_000, max: 30_000 }),
        fc.constantFrom('\n', '\r\n'),
        (words, n, eol) => {
          const lines = Array.from({ length: n }, (_, i) => `${words[i % words.length]}${i}`);
          const block = lines.map((l) => `+${l}`).join('\n');
          expect(block.length).toBeGreaterThanOrEqual(1 << 16);
          expect(addedBlock(block, eol)).toBe(`+${lines.join(eol)}${eol === '\r\n' ? '\r' : ''}`);
        },
      ),
      { numRuns: 40 },
    );
  });
});
