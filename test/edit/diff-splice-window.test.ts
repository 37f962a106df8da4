import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedUnifiedDiff } from '../../src/edit/bounded-diff.js';
import { replaceInText } from '../../src/edit/replace-in-text.js';

// Lines that repeat (braces, blanks, near twins): an edit among them can be aligned many
// ways, and a window that cut too close would show it differently.
const line = fc.constantFrom('}', '', '  }', 'x', 'x ', 'return a;', '\tdone();', '// note');
/** Over 64 KiB of filler on a side: the diff then works on a window around the splice. */
const filler = Array.from({ length: 1200 }, (_, i) => `filler line ${i} ${'-'.repeat(40)}`);

const texts = fc.record({
  region: fc.array(line, { minLength: 1, maxLength: 30 }),
  padHead: fc.boolean(),
  padTail: fc.boolean(),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});

function textOf(t: {
  region: string[];
  padHead: boolean;
  padTail: boolean;
  crlf: boolean;
  finalNewline: boolean;
}) {
  const lines = [...(t.padHead ? filler : []), ...t.region, ...(t.padTail ? filler : [])];
  const eol = t.crlf ? '\r\n' : '\n';
  return lines.join(eol) + (t.finalNewline ? eol : '');
}

describe('a diff given the edit as a splice of the old text', () => {
  it('is the diff of the whole texts, for edits of every kind and place', () => {
    fc.assert(
      fc.property(
        texts,
        fc.nat(),
        fc.nat(60),
        fc.array(line, { maxLength: 5 }),
        fc.boolean(),
        fc.nat(4),
        fc.constantFrom('known', 'known without line count', 'none'),
        (t, at, length, added, replaceAll, context, given) => {
          const text = textOf(t);
          const regionStart = t.padHead ? text.indexOf('\n', text.indexOf('filler line 1199')) + 1 : 0;
          const from = regionStart + (at % Math.max(1, text.length - regionStart));
          const oldString = text.slice(from, from + length);
          const result = replaceInText(text, {
            oldString,
            newString: added.join('\n'),
            replaceAll,
          });
          if (!result.ok) return;
          const { headLines: _, ...withoutLines } = result.unchanged;
          const known = given === 'known' ? result.unchanged : given === 'none' ? undefined : withoutLines;
          const options = {
            oldPath: '/f.txt',
            newPath: '/f.txt',
            context,
            // No time budget in play: a region cut short on a loaded machine would differ by timing alone.
            timeBudgetMs: 600_000,
            ...(known ? { known } : {}),
          };
          // Without a KnownShared the splice's own ends are the known ones (the change is
          // shown where it was made, not slid along equal lines before it).
          const spliceEnds = { head: result.splice.head, tail: result.splice.tail };
          const whole = boundedUnifiedDiff(text, result.newText, { ...options, known: known ?? spliceEnds });
          const windowed = boundedUnifiedDiff(text, result.newText, { ...options, splice: result.splice });
          expect(windowed).toEqual(whole);
        },
      ),
      { numRuns: 250 },
    );
  });

  it('keeps the hunk line numbers of a change deep in a big file', () => {
    const text = `${filler.join('\n')}\n${filler.join('\n')}\nmiddle();\n${filler.join('\n')}\n`;
    const result = replaceInText(text, {
      oldString: 'middle();',
      newString: 'changed();',
      replaceAll: false,
    });
    if (!result.ok) throw new Error(result.message);
    const diff = boundedUnifiedDiff(text, result.newText, {
      oldPath: '/f.txt',
      newPath: '/f.txt',
      known: result.unchanged,
      splice: result.splice,
    });
    expect(diff.unifiedDiff).toContain('@@ -2398,7 +2398,7 @@');
    expect(diff.unifiedDiff).toContain('-middle();\n+changed();');
  });

  it("is the whole texts' diff when the window is most of the text (cut from the new text itself)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('line 1', '-----', 'filler', ' '),
        fc.constantFrom('', 'LINE\n', '='),
        fc.boolean(),
        fc.boolean(),
        (oldString, newString, bom, crlf) => {
          const eol = crlf ? '\r\n' : '\n';
          const text = `${bom ? '\uFEFF' : ''}${filler.join(eol)}${eol}`;
          const result = replaceInText(text, { oldString, newString, replaceAll: true });
          if (!result.ok) throw new Error(result.message);
          const options = { oldPath: '/f.txt', newPath: '/f.txt', timeBudgetMs: 600_000 };
          const whole = boundedUnifiedDiff(text, result.newText, { ...options, known: result.unchanged });
          const windowed = boundedUnifiedDiff(text, result.newText, {
            ...options,
            known: result.unchanged,
            splice: result.splice,
          });
          expect(windowed).toEqual(whole);
          expect(windowed.added).toBeGreaterThan(0);
        },
      ),
      { numRuns: 32 },
    );
  });
});
