import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedUnifiedDiff } from '../../src/edit/bounded-diff.js';
import { replaceInText } from '../../src/edit/replace-in-text.js';
import { detectEol, lineNumbersAt } from '../../src/edit/text-format.js';
import { expectDiffWithin, hintLines } from '../helpers/diff-region.js';
import { expectSplice } from '../helpers/splice.js';

const piece = fc.constantFrom('a', 'b', ' ', '\n', '\r\n', 'é', 'x = 1;');
const text = fc.array(piece, { maxLength: 400 }).map((parts) => parts.join(''));
/** Long enough for the diff to cut shared ends (it does above 1 KiB). */
const longText = fc.array(piece, { minLength: 300, maxLength: 1500 }).map((parts) => parts.join(''));

describe('counting instead of splitting', () => {
  it('detectEol picks the ending split() counting picked', () => {
    fc.assert(
      fc.property(text, (t) => {
        const crlf = t.split('\r\n').length - 1;
        const lf = t.split('\n').length - 1 - crlf;
        expect(detectEol(t)).toBe(crlf > lf ? '\r\n' : '\n');
      }),
    );
  });

  it('lineNumbersAt gives the 1-based line of each offset', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(500)), (t, raw) => {
        const offsets = raw.filter((o) => o < t.length).sort((a, b) => a - b);
        expect(lineNumbersAt(t, offsets)).toEqual(offsets.map((o) => t.slice(0, o).split('\n').length));
      }),
    );
  });
});

describe('the unchanged-ends hint of an edit', () => {
  it('holds, and the diff shows the change between its ends', () => {
    fc.assert(
      fc.property(
        fc.tuple(
          longText,
          fc.nat(4000),
          fc.integer({ min: 1, max: 20 }),
          fc.string({ maxLength: 10 }),
          fc.boolean(),
          fc.boolean(),
        ),
        ([t, at, length, replacement, all, fuzzy]) => {
          const start = Math.min(at, Math.max(0, t.length - 1));
          // Now and then with trailing spaces dropped, so fuzzy matches give hints too.
          const exact = t.slice(start, start + length);
          const oldString = fuzzy ? exact.replace(/ +(?=\r?\n|$)/g, '') : exact;
          const result = replaceInText(t, { oldString, newString: replacement, replaceAll: all });
          expectSplice(t, result);
          if (!result.ok) return;
          // The hint's contract: those characters really are shared at both ends.
          const { head, tail } = result.unchanged;
          expect(result.newText.slice(0, head)).toBe(t.slice(0, head));
          expect(result.newText.slice(result.newText.length - tail)).toBe(t.slice(t.length - tail));
          expect(head + tail).toBeLessThanOrEqual(Math.min(t.length, result.newText.length));
          // And the newlines it says lie before `head` are there.
          expect(result.unchanged.headLines).toBe(t.slice(0, head).split('\n').length - 1);
          // The diff shows the change between the hint's ends, and is a patch from the old text to the new.
          const options = { oldPath: '/f', newPath: '/f' };
          const hinted = boundedUnifiedDiff(t, result.newText, { ...options, known: result.unchanged });
          const [first, end] = hintLines(t, result.newText, result.unchanged);
          expectDiffWithin(t, result.newText, hinted.unifiedDiff, first, end);
        },
      ),
      { numRuns: 600 },
    );
  });
});
