// rt43: found by rt43-surfaces-prop (seed 7). An edit_lines result shows `3#C|}` for a twin `}` (C: its
// context anchor — the line with its previous and next non-empty lines). Then a `}` is inserted right below
// it (outside): which of the now three `}` lines is new cannot be told, so which one the model saw is
// unknowable. A later surface (the next edit_lines result, or a page read) shows `4#C` for the `}` now
// right above E();. The model passes `3#C` — the exact string it was shown for line 3. edit_lines edits
// line 4: checkEarlierRead accepts any anchor whose HASH some fresh anchor has (ignoring the line number),
// and resolution prefers the hash over the number.
// Expected: refused (anchor_*), file unchanged — or line 3. Never line 4.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const V0 = ['top();', '}', '}', 'mid();', 'end();'];
const text = (l: string[]) => `${l.join('\n')}\n`;

describe('rt43: an older surface anchor whose hash a fresh surface shows at another line', () => {
  for (const later of ['edit_lines result', 'page read'] as const)
    it(`later surface: ${later}`, async () => {
      const { ts, file, vpath } = setup(text(V0));
      const a0 = await readAnchors(ts, vpath);
      const e1: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: a0[3]!, content: 'E();' }],
        sanity: 'off',
      });
      expect(e1.ok).toBe(true);
      const m = (e1.data.diff as string).match(/^ (3#[0-9a-f]{6})\|\}$/m);
      expect(m, e1.data.diff).not.toBeNull();
      const anchor = m![1]!; // 3#C, shown for the second `}`
      // outside: a `}` inserted between line 3 and E();
      fs.writeFileSync(file, text(['top();', '}', '}', '}', 'E();', 'end();']));
      if (later === 'edit_lines result') {
        const e2: any = await ts.callTool('edit_lines', {
          path: vpath,
          operations: [{ op: 'replace_line', hash: a0[4]!, content: 'END();' }],
          sanity: 'off',
        });
        expect(e2.ok, JSON.stringify(e2.error)).toBe(true);
        // Bound to the version: the later result does not show that string for another line.
        expect(e2.data.diff).not.toContain(`4#${anchor.split('#')[1]}|}`);
      } else {
        const p = await readAnchors(ts, vpath, { offset: 4, limit: 1 });
        expect(p[0]).not.toBe(`4#${anchor.split('#')[1]}`);
      }
      const before = fs.readFileSync(file, 'utf8');
      const r: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: anchor, content: 'EDITED' }],
        sanity: 'off',
      });
      const after = fs.readFileSync(file, 'utf8');
      if (r.ok) {
        const at = after.split('\n').indexOf('EDITED');
        expect(at, `${anchor} (shown for the 2nd "}", line 3) edited line ${at + 1}`).toBe(2);
      } else {
        expect(ANCHOR_CODES, `${r.error.code}: ${r.error.message}`).toContain(r.error.code);
        expect(after).toBe(before);
      }
    });
});
