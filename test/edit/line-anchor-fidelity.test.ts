import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyLineEdits } from '../../src/edit/apply-line-edits.js';
import { hex } from '../../src/edit/line-hash.js';
import { LineTable } from '../../src/edit/line-table.js';
import { readAnchors } from '../../src/edit/read-anchors.js';
import { withoutBom } from '../../src/edit/text-format.js';
import { textArbitrary } from '../helpers/text-arbitrary.js';

// Files full of what makes anchors weak (blank lines, braces, repeats, trailing whitespace,
// mixed line endings): while the file is as read, LINE#HASH names exactly one line, and an
// edit there leaves every other line byte for byte as it was.
const line = fc.constantFrom('', '', '}', '  }', '{', 'x = 1;', 'x = 1;  ', '\treturn y;', '});', '  ');
const textArb = textArbitrary(line, fc.constantFrom('\n', '\n', '\r\n'), 30).filter(
  (t) => new LineTable(withoutBom(t).body).count > 0,
);

describe('edit_lines on a file unchanged since the hashed read', () => {
  it('applies any LINE#HASH anchor at exactly that line and keeps every other line byte for byte', () => {
    fc.assert(
      fc.property(
        textArb.chain((text) =>
          fc.tuple(
            fc.constant(text),
            fc.nat(new LineTable(withoutBom(text).body).count - 1),
            fc.constantFrom('replace_line', 'insert_after', 'insert_before', 'delete_line'),
          ),
        ),
        ([text, at, op]) => {
          const { body } = withoutBom(text);
          const table = new LineTable(body);
          // The anchor a hashed read shows for the line (a twin's is its context or position anchor).
          const hash = `${at + 1}#${hex(readAnchors(table.hashes())[at]!, 6)}`;
          const content = 'NEW';
          const request = op === 'delete_line' ? { op, hash } : ({ op, hash, content } as const);
          const r = applyLineEdits(text, [request], { snapshot: text, sanity: 'off' });
          if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
          expect(r.autoCorrections).toEqual([]);
          const bom = text.length - body.length;
          // Everything before the edited place and after it is the original text, unchanged.
          const cutFrom = op === 'insert_after' ? table.offset(at + 1) : table.offset(at);
          const cutTo = op === 'insert_after' || op === 'insert_before' ? cutFrom : table.offset(at + 1);
          const head = text.slice(0, bom + cutFrom);
          const tail = text.slice(bom + cutTo);
          expect(r.newText.startsWith(head)).toBe(true);
          expect(r.newText.endsWith(tail)).toBe(true);
          const middle = r.newText.slice(head.length, r.newText.length - tail.length);
          // Appending after a last line without a newline gives that line one (and the new line none).
          const appended = op === 'insert_after' && table.terminator(at) === '';
          const core = appended ? middle.replace(/^\r?\n/, '') : middle.replace(/\r?\n$/, '');
          expect(core).toBe(op === 'delete_line' ? '' : 'NEW');
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
