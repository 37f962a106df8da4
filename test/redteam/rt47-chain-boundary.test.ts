// rt47: the "changes the toolset saw" chain around its limit (4), the deletion seen at each step,
// with edit_lines calls and pages interleaved; then the deleted line's text written anew elsewhere.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const U = Array.from({ length: 12 }, (_, i) => `uniq_${i + 1}();`);
const text = (l: string[]) => `${l.join('\n')}\n`;

describe('rt47: chain of seen changes, deletion seen at step k', () => {
  for (const how of ['page', 'edit_lines', 'mixed'] as const)
    for (const total of [3, 4, 5])
      for (let k = 1; k <= total; k++)
        it(`${how}: deletion of u2 is seen change #${k} of ${total}`, async () => {
          const { ts, file, vpath } = setup(text(U));
          const a = await readAnchors(ts, vpath);
          const b = a[1]!; // u2
          let cur = [...U];
          let n = 100;
          let u12 = a[11]!;
          for (let step = 1; step <= total; step++) {
            // outside change
            if (step === k) cur = cur.filter((l) => l !== U[1]);
            else cur = [...cur.slice(0, 6), `outside_${step}();`, ...cur.slice(6)];
            fs.writeFileSync(file, text(cur));
            if (how === 'page' || (how === 'mixed' && step % 2 === 1)) {
              const r: any = await ts.callTool('read_file', {
                path: vpath,
                hashes: true,
                offset: 8,
                limit: 1,
              });
              expect(r.ok).toBe(true);
            } else {
              // an edit_lines call on the last line, by the read's anchor of u12 (or last result)
              const r: any = await ts.callTool('edit_lines', {
                path: vpath,
                operations: [{ op: 'insert_after', hash: u12, content: `mine_${n++}();` }],
              });
              expect(r.ok, JSON.stringify(r.error)).toBe(true);
              u12 = (r.data.diff as string).match(/^[ +](\d+#[0-9a-f]{6})\|uniq_12\(\);$/m)![1]!;
              cur = fs.readFileSync(file, 'utf8').split('\n').slice(0, -1);
            }
          }
          // the other agent writes u2's text over line 1
          cur[0] = U[1]!;
          fs.writeFileSync(file, text(cur));
          const before = fs.readFileSync(file, 'utf8');
          const r: any = await ts.callTool('edit_lines', {
            path: vpath,
            operations: [{ op: 'replace_line', hash: b, content: 'changed();' }],
          });
          const after = fs.readFileSync(file, 'utf8');
          expect(r.ok, `read's ${b} edited the new u2: ${JSON.stringify(after)}`).toBe(false);
          expect(ANCHOR_CODES).toContain(r.error.code);
          expect(after).toBe(before);
        });
});
