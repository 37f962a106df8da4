// rt47: a change made elsewhere that an edit_lines call MET but refused is not recorded as seen.
// Read [u1,u2,u3,u4] (u2 shown as 2#B). Another agent deletes u2. The model's edit_lines with 2#B is
// refused (anchor_stale: "changed or deleted since") — the toolset saw u2 gone. The other agent then
// writes a NEW line with u2's text over line 1. The model retries the very same 2#B: it now succeeds and
// edits the new line (the diff read→now says "u1 deleted, u2 kept"). Promise: refused (the line shown is gone).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const U = ['uniq_1();', 'uniq_2();', 'uniq_3();', 'uniq_4();'];
const text = (l: string[]) => `${l.join('\n')}\n`;

describe('rt47: a deletion met by an edit_lines call that wrote nothing', () => {
  for (const first of ['same anchor', 'other line', 'dry run on line 1'] as const)
    it(`u2 deleted outside, an edit_lines call (${first}) meets it, then u2 written anew at line 1`, async () => {
      const { ts, file, vpath } = setup(text(U));
      const a = await readAnchors(ts, vpath);
      const b = a[1]!;
      fs.writeFileSync(file, text([U[0]!, U[2]!, U[3]!])); // another agent deletes u2
      const op =
        first === 'same anchor'
          ? { op: 'replace_line', hash: b, content: 'changed();' }
          : // a refused call on another line: a range whose end is the deleted line
            { op: 'replace_range', start_hash: a[0]!, end_hash: b, content: 'x();' };
      if (first === 'dry run on line 1') {
        // a dry run of an edit on line 1 meets (and shows a diff of) the version without u2
        const r1: any = await ts.callTool('edit_lines', {
          path: vpath,
          dryRun: true,
          operations: [{ op: 'replace_line', hash: a[0]!, content: 'uniq_1b();' }],
        });
        expect(r1.ok, JSON.stringify(r1.error)).toBe(true);
      } else {
        const r1: any = await ts.callTool('edit_lines', { path: vpath, operations: [op] });
        expect(r1.ok, 'the first call sees u2 gone').toBe(false);
        expect(r1.error.code).toBe('anchor_stale');
      }
      fs.writeFileSync(file, text([U[1]!, U[2]!, U[3]!])); // the other agent writes u2's text over line 1
      const before = fs.readFileSync(file, 'utf8');
      const r: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: b, content: 'changed();' }],
      });
      const after = fs.readFileSync(file, 'utf8');
      expect(
        r.ok,
        `${b} was refused as deleted, then the same anchor edited a new line: ${JSON.stringify(after)}`,
      ).toBe(false);
      expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    });
});
