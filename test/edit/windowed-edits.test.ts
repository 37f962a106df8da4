import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyLineEdits } from '../../src/edit/apply-line-edits.js';
import { fixUnifiedDiff } from '../../src/edit/fix-unified-diff.js';
import type { LineEditOp } from '../../src/edit/line-edit-ops.js';
import { lineHash, lineHash32 } from '../../src/edit/line-hash.js';
import { LineTable } from '../../src/edit/line-table.js';
import { locateBlock, locateExact } from '../../src/edit/match-cascade.js';
import { splitLines, withoutBom } from '../../src/edit/text-format.js';
import { expectSplice, withoutSplice } from '../helpers/splice.js';
import { textArbitrary } from '../helpers/text-arbitrary.js';

// The edit tools split out only the lines around a change and copy the rest as text.
// These properties pin that the result is exactly what working on the whole file gives.

const WORDS = ['', '}', '{', '  x = 1;', 'x = 1;', '  return y;', 'é ok', '(a)', 'foo', 'foo  ', '\tbar'];
const line = fc.constantFrom(...WORDS);
const eol = fc.constantFrom('\n', '\n', '\r\n');

/** A text from lines, each with its own line ending, maybe a BOM and maybe no final newline. */
const textArb = textArbitrary(line, eol, 40);

describe('LineTable', () => {
  it('agrees with splitLines and hashes every line like lineHash32', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const body = withoutBom(text).body;
        const table = new LineTable(body);
        const split = splitLines(body);
        expect(table.split(0, table.count)).toEqual(split);
        expect(table.offset(table.count)).toBe(body.length);
        expect([...table.hashes()]).toEqual(split.lines.map((l) => lineHash32(l)));
        split.lines.forEach((l, i) => {
          expect(table.lineAt(table.offset(i))).toBe(i);
          expect(table.lineEquals(i, l)).toBe(true);
          expect(table.lineEquals(i, `${l}x`)).toBe(false);
        });
      }),
    );
  });
});

describe('locateExact', () => {
  it('finds the same exact matches as locateBlock', () => {
    fc.assert(
      fc.property(
        textArb,
        fc.array(line, { minLength: 1, maxLength: 3 }),
        fc.nat(45),
        (text, needle, from) => {
          const body = withoutBom(text).body;
          const exact = locateExact(new LineTable(body), needle, from);
          const reference = locateBlock(splitLines(body).lines, needle, { from, levels: ['exact'] });
          if (needle.every((l) => l === '')) expect(exact).toBeUndefined();
          else expect(exact).toEqual(reference?.matches ?? []);
        },
      ),
    );
  });
});

const content = fc.array(line, { maxLength: 3 }).map((ls) => ls.join('\n'));

/** Operations anchored on lines of `text` (sometimes with a line hint, sometimes on a bad hash). */
function opsFor(text: string) {
  const lines = splitLines(withoutBom(text).body).lines;
  const anchor = fc.oneof(
    {
      weight: 9,
      arbitrary: fc.nat(Math.max(0, lines.length - 1)).map((i) => `${i + 1}#${lineHash(lines[i] ?? '')}`),
    },
    { weight: 1, arbitrary: fc.constant('abcdef') },
  );
  const op: fc.Arbitrary<LineEditOp> = fc.oneof(
    fc.record({ op: fc.constant('replace_line' as const), hash: anchor, content }),
    fc.record({ op: fc.constant('insert_after' as const), hash: anchor, content }),
    fc.record({ op: fc.constant('insert_before' as const), hash: anchor, content }),
    fc.record({ op: fc.constant('delete_line' as const), hash: anchor }),
    fc.record({ op: fc.constant('replace_range' as const), start_hash: anchor, end_hash: anchor, content }),
    fc.record({ op: fc.constant('delete_range' as const), start_hash: anchor, end_hash: anchor }),
  );
  return fc.array(op, { minLength: 1, maxLength: 3 });
}

describe('applyLineEdits on a window of lines', () => {
  it('gives exactly the result of splicing the whole file', () => {
    fc.assert(
      fc.property(
        textArb.chain((text) =>
          fc.tuple(
            fc.constant(text),
            opsFor(text),
            fc.constantFrom('reject', 'warn', 'off') as fc.Arbitrary<'reject' | 'warn' | 'off'>,
            fc.oneof(fc.constant(undefined), fc.constant(text), textArb),
          ),
        ),
        ([text, ops, sanity, snapshot]) => {
          const options = { sanity, ...(snapshot === undefined ? {} : { snapshot }) };
          const result = applyLineEdits(text, ops, options);
          const whole = applyLineEdits(text, ops, options, Infinity);
          expect(withoutSplice(result)).toEqual(withoutSplice(whole));
          expectSplice(text, result);
          expectSplice(text, whole);
          // Known hashes (a cache hit) change nothing; a wrong-sized array is ignored.
          const table = new LineTable(withoutBom(text).body);
          expect(applyLineEdits(text, ops, { ...options, hashes: table.hashes() })).toEqual(result);
          const wrong = new Uint32Array(table.count + 1);
          expect(applyLineEdits(text, ops, { ...options, hashes: wrong })).toEqual(result);
          if (result.ok) {
            // The derived hashes of the new text are what hashing it afresh gives.
            const after = new LineTable(withoutBom(result.newText).body).hashes();
            expect([...result.lineHashes.after]).toEqual([...after]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** A diff against `text`: a few hunks over its real lines, sometimes with drifted whitespace. */
function diffFor(text: string) {
  const lines = splitLines(withoutBom(text).body).lines;
  const hunk = (at: number) =>
    fc
      .record({
        context: fc.nat(3),
        removed: fc.nat(2),
        added: fc.array(line, { maxLength: 2 }),
        drift: fc.boolean(),
      })
      .map(({ context, removed, added, drift }) => {
        const shown = (l: string) => (drift ? `${l} ` : l);
        const before = lines.slice(Math.max(0, at - context), at).map((l) => ` ${shown(l)}`);
        const minus = lines.slice(at, at + removed).map((l) => `-${shown(l)}`);
        const after = lines.slice(at + removed, at + removed + context).map((l) => ` ${shown(l)}`);
        return ['@@ @@', ...before, ...minus, ...added.map((l) => `+${l}`), ...after].join('\n');
      });
  // Hunks in file order, mostly far enough apart not to overlap.
  const starts = fc
    .uniqueArray(fc.nat(Math.max(0, lines.length - 1)), { minLength: 1, maxLength: 3 })
    .map((xs) => xs.sort((a, b) => a - b));
  return starts.chain((xs) => fc.tuple(...xs.map(hunk))).map((hs) => `${hs.join('\n')}\n`);
}

describe('fixUnifiedDiff on a window of lines', () => {
  it('gives exactly the result of patching the whole file, with a strictly applicable corrected diff', () => {
    fc.assert(
      fc.property(
        textArb.chain((text) => fc.tuple(fc.constant(text), diffFor(text))),
        ([text, diff]) => {
          const windowed = fixUnifiedDiff(text, diff);
          const whole = fixUnifiedDiff(text, diff, Infinity);
          if (!windowed.ok || !whole.ok) {
            expect(windowed).toEqual(whole);
            return;
          }
          expectSplice(text, windowed);
          expectSplice(text, whole);
          // Where the change lies is told from the window when it checks out, else the window's ends:
          // it may differ with the window, but it always holds.
          for (const r of [windowed, whole]) {
            const { head, tail } = r.unchanged;
            expect(r.newText.slice(0, head)).toBe(text.slice(0, head));
            expect(r.newText.slice(r.newText.length - tail)).toBe(text.slice(text.length - tail));
          }
          const { correctedDiff, splice: _s, unchanged: _u, ...rest } = windowed;
          const { correctedDiff: _, splice: _w, unchanged: _v, ...wholeRest } = whole;
          expect(rest).toEqual(wholeRest);
          const body = withoutBom(text).body;
          const applied =
            correctedDiff === '' ? body : applyPatch(body, correctedDiff, { autoConvertLineEndings: false });
          expect(applied).toBe(withoutBom(windowed.newText).body);
        },
      ),
      { numRuns: 300 },
    );
  });
});
