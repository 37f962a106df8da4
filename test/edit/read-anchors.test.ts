import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyLineEdits } from '../../src/edit/apply-line-edits.js';
import { hex } from '../../src/edit/line-hash.js';
import { LineTable } from '../../src/edit/line-table.js';
import { readAnchors } from '../../src/edit/read-anchors.js';

// Files full of twins: blank lines, braces, repeated statements (with twin neighbours too).
const line = fc.constantFrom('}', '', '  }', 'x = 1;', 'call(a);', 'x = 2;', '{', 'end();');

describe('readAnchors', () => {
  it('a slipped line number next to any anchor a read showed still finds that line (unchanged file)', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.nat(29),
        fc.integer({ min: -3, max: 3 }),
        (lines, pick, slip) => {
          const text = `${lines.join('\n')}\n`;
          const shown = readAnchors(new LineTable(text).hashes());
          const anchors = Array.from(shown, (h) => hex(h, 6));
          const at = pick % lines.length;
          // Six hex digits are 24 bits: a chance collision between two anchors is the file's, not a slip.
          fc.pre(anchors.filter((a) => a === anchors[at]).length === 1);
          const wrongLine = Math.max(1, at + 1 + slip);
          const result = applyLineEdits(
            text,
            [{ op: 'replace_line', hash: `${wrongLine}#${anchors[at]}`, content: 'replaced();' }],
            { snapshot: text, sanity: 'off' },
          );
          if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
          const want: string[] = [...lines];
          want[at] = 'replaced();';
          expect(result.newText).toBe(`${want.join('\n')}\n`);
        },
      ),
      { numRuns: 800 },
    );
  });

  it('keeps a line own hash when it is unique in the file, and never repeats an anchor in practice', () => {
    const lines = ['a();', '}', '', '}', '', 'b();', '}', '}', '}'];
    const table = new LineTable(`${lines.join('\n')}\n`);
    const hashes = table.hashes();
    const shown = readAnchors(hashes);
    expect(shown[0]).toBe(hashes[0]);
    expect(shown[5]).toBe(hashes[5]);
    expect(new Set(Array.from(shown, (h) => hex(h, 6))).size).toBe(lines.length);
  });
});
