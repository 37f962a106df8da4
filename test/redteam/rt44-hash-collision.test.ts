// rt44: a line changed by another agent into a text with the same 32-bit line hash.
// Lines are identified by a 32-bit FNV-1a hash (src/edit/line-hash.ts), and a read's line is followed into
// the changed file by a diff over those hashes (src/edit/follow-line.ts followLine on `read.full` /
// `current.full`): two different texts with one hash are the same line to it. FNV-1a collisions are found in
// a second (meet in the middle over six characters); in a file of 200,000 distinct lines about five pairs
// of lines collide by chance. Here the model read `  total += price * qty;` (line 3); another agent changed
// that line to `  total -= price * qty; // AC2DS3` (same 32-bit hash); the model replaces line 3 by its
// anchor: the other agent's line is overwritten as if it were the line read. The promise (docs/tools.md):
// "anchor_stale when it was edited or deleted".
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lineHash32 } from '../../src/edit/line-hash.js';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const X = '  total += price * qty;';
const Y = '  total -= price * qty; // AC2DS3';
const V0 = ['function sum(items) {', '  let total = 0;', X, '  return total;', '}'];
const text = (l: string[]) => `${l.join('\n')}\n`;

describe('rt44: a line edited since the read into a text with the same 32-bit hash', () => {
  it('the two texts collide (fixture check)', () => {
    expect(lineHash32(Y)).toBe(lineHash32(X));
  });
  for (const op of ['replace_line', 'delete_line'] as const)
    it(`${op} by the read's anchor after another agent edited that line: anchor_stale, file unchanged`, async () => {
      const { ts, file, vpath } = setup(text(V0));
      const a = await readAnchors(ts, vpath);
      const V1 = V0.slice();
      V1[2] = Y;
      fs.writeFileSync(file, text(V1)); // another agent edits line 3
      const before = fs.readFileSync(file, 'utf8');
      const r: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [
          op === 'delete_line'
            ? { op, hash: a[2]! }
            : { op, hash: a[2]!, content: '  total += price * qty * 2;' },
        ],
      });
      const after = fs.readFileSync(file, 'utf8');
      expect(r.ok, r.ok ? `overwrote the other agent's line: ${r.data.diff}` : '').toBe(false);
      expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    });
});
