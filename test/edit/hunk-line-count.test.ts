import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchoredDiff } from '../../src/edit/anchored-diff.js';
import { LineTable } from '../../src/edit/line-table.js';
import { countHunkLines, formatHunks } from '../../src/edit/unified-hunks.js';

const line = fc.constantFrom('}', '', 'a', 'b', '  x = 1;', 'tail');
const text = fc.record({
  lines: fc.array(line, { maxLength: 40 }),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});
const joined = (t: { lines: string[]; crlf: boolean; finalNewline: boolean }) => {
  const eol = t.crlf ? '\r\n' : '\n';
  return t.lines.join(eol) + (t.finalNewline && t.lines.length > 0 ? eol : '');
};

describe('the line count of a diff, found without writing it', () => {
  it('is the number of lines the written diff has, for any texts, context and run summary', () => {
    fc.assert(
      fc.property(
        text,
        text,
        fc.nat(4),
        fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 1, max: 6 })),
        fc.constantFrom('', '--- a/f\n+++ b/f\n'),
        (x, y, context, shown, head) => {
          const a = new LineTable(joined(x));
          const b = new LineTable(joined(y));
          const { runs } = anchoredDiff(a, b, 600_000);
          const written = formatHunks(a, b, runs, context, 0, shown, head);
          const newlines = written.text.split('\n').length - 1;
          expect(written.lines).toBe(newlines);
          expect(countHunkLines(a, b, runs, context, shown, head)).toBe(newlines);
        },
      ),
      { numRuns: 400 },
    );
  });
});
