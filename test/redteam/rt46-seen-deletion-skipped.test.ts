// rt46 (found by rt46-surfaces-ids-prop, RT46_REUSE=1 RT46_SEED=5, shrunk): the held read's line is followed
// by a diff straight from the read to the file now, skipping a version the toolset itself saw in between.
// Read: [u1, u2, u3, u4] (u2 shown as 2#B). Another agent deletes u2. The toolset sees that version (its own
// edit_lines call on line 1, or a page). The other agent then writes a NEW line with u2's text at line 1.
// The read's 2#B is taken for that new line (the direct diff read→now says "u1 deleted, u2 kept"), although
// the toolset saw u2 gone. Promise: the line shown, followed to where it is now, or refused.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const U = ['uniq_1();', 'uniq_2();', 'uniq_3();', 'uniq_4();'];
const text = (l: string[]) => `${l.join('\n')}\n`;

describe('rt46: a deletion the toolset saw is skipped by the read→now diff', () => {
  for (const seen of ['edit_lines', 'page', 'none'] as const) {
    // Fixed: the change the toolset saw is followed between the two versions it saw (ChangeSeen).
    it(`u2 deleted outside, seen by ${seen}, then a new u2 written at line 1`, async () => {
      const { ts, file, vpath } = setup(text(U));
      const a = await readAnchors(ts, vpath);
      const b = a[1]!; // 2#B for u2
      fs.writeFileSync(file, text([U[0]!, U[2]!, U[3]!])); // another agent deletes u2
      let mid = [U[0]!, U[2]!, U[3]!];
      if (seen === 'edit_lines') {
        const r1: any = await ts.callTool('edit_lines', {
          path: vpath,
          operations: [{ op: 'replace_line', hash: a[0], content: 'new_5();' }],
        });
        expect(r1.ok, JSON.stringify(r1.error)).toBe(true);
        mid = ['new_5();', U[2]!, U[3]!];
      } else if (seen === 'page') {
        const r1: any = await ts.callTool('read_file', { path: vpath, hashes: true, offset: 2, limit: 1 });
        expect(r1.ok).toBe(true);
      }
      // The other agent writes u2's text anew, over line 1.
      fs.writeFileSync(file, text([U[1]!, ...mid.slice(1)]));
      const before = fs.readFileSync(file, 'utf8');
      const r: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: b, content: 'changed();' }],
      });
      const after = fs.readFileSync(file, 'utf8');
      if (seen === 'none') return; // control: the toolset never saw u2 gone (read→now alone says u1 deleted)
      expect(
        r.ok,
        `read's ${b} (u2, deleted — the toolset saw it) edited the new line: ${JSON.stringify(after)}`,
      ).toBe(false);
      expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    });
  }
});
