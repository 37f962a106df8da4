import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineTable } from '../../src/edit/line-table.js';
import { splitLines } from '../../src/edit/text-format.js';

describe('LineTable', () => {
  it('finds the lines splitLines finds, for dense and sparse newlines and texts past the sampled prefix', () => {
    const piece = fc.oneof(
      fc.constantFrom('\n', '\r\n', '}', '', 'é', '😀'),
      fc.string({ maxLength: 3 }),
      fc.nat(200).map((n) => 'x'.repeat(n)),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.nat(70_000),
        fc.boolean(),
        (pieces, pad, padFirst) => {
          // A padding block moves the dense or sparse part past the first 64 KiB sampled.
          const body = pieces.join('');
          const text = padFirst ? `${'y'.repeat(pad)}\n${body}` : `${body}${'}\n'.repeat(pad >> 4)}`;
          const table = new LineTable(text);
          const split = splitLines(text);
          expect(table.count).toBe(split.lines.length);
          for (let i = 0; i < table.count; i++) {
            expect(table.line(i)).toBe(split.lines[i]);
            expect(table.terminator(i)).toBe(split.terminators[i]);
          }
          expect(table.offset(table.count)).toBe(text.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
