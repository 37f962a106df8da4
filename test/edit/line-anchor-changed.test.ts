import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyLineEdits } from '../../src/edit/apply-line-edits.js';
import { hex } from '../../src/edit/line-hash.js';
import { LineTable } from '../../src/edit/line-table.js';
import { readAnchors } from '../../src/edit/read-anchors.js';

// After the file changed since the hashed read, a LINE#HASH anchor either edits the very line the
// model read (wherever it moved) or is refused; it never lands on a twin. Repeats and structure
// lines make twins with identical neighbours common here.
const WORDS = ['', '}', 'a();', 'b();', 'x = 1;', 'y = 2;', 'c();'];

const scenario = fc.record({
  lines: fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 20 }),
  target: fc.nat(100),
  at: fc.nat(100),
  change: fc.constantFrom('insert', 'delete', 'modify'),
  inserted: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
});

/** The anchor a hashed read of `lines` shows for line `t`. */
const shownAt = (lines: string[], t: number) =>
  readAnchors(new LineTable(`${lines.join('\n')}\n`).hashes())[t]!;

describe('edit_lines after the file changed since the read', () => {
  it('edits the line that was read, or refuses', () => {
    let applied = 0;
    fc.assert(
      fc.property(scenario, ({ lines, target, at, change, inserted }) => {
        const t = target % lines.length;
        const p = at % lines.length;
        // Identical lines inserted or deleted next to the target leave nothing to tell them apart.
        if (change === 'delete') fc.pre(lines[p] !== lines[t]);
        if (change === 'insert') fc.pre(!inserted.includes(lines[t]!));
        const current = lines.map((l, i): { l: string; read?: number } => ({ l, read: i }));
        if (change === 'insert') current.splice(p, 0, ...inserted.map((l) => ({ l })));
        else if (change === 'delete') current.splice(p, 1);
        else current[p] = { l: `${lines[p]} // changed` };
        const r = applyLineEdits(
          `${current.map((c) => c.l).join('\n')}\n`,
          // The anchor the hashed read showed for the line (a twin's is its context or position anchor).
          [{ op: 'replace_line', hash: `${t + 1}#${hex(shownAt(lines, t), 6)}`, content: 'NEW' }],
          { snapshot: `${lines.join('\n')}\n`, sanity: 'off' },
        );
        const want = current.findIndex((c) => c.read === t);
        if (!r.ok) {
          expect([
            'anchor_stale',
            'anchor_low_entropy',
            'anchor_ambiguous',
            'anchor_context_ambiguous',
          ]).toContain(r.code);
          return;
        }
        applied++;
        const expected = current.map((c, i) => (i === want ? 'NEW' : c.l));
        expect(r.newText).toBe(`${expected.join('\n')}\n`);
      }),
      { numRuns: 3_000 },
    );
    // Most moved anchors with letters are followed, not refused.
    expect(applied).toBeGreaterThan(1_000);
  });
});
