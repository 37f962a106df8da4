// rt47: the toolset's OWN edit_file / write_file / patch_file calls are not recorded as changes it saw.
// Read [u1,u2,u3,u4] (u2 shown as 2#B). The model deletes u2 with edit_file, then (another edit_file)
// turns u1 into a NEW line with u2's text. The read's 2#B then edits that new line: the diff read→now
// says "u1 deleted, u2 kept", although the toolset itself wrote the version where u2 was gone.
// Promise: the line shown, followed to where it is now, or refused.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const U = ['uniq_1();', 'uniq_2();', 'uniq_3();', 'uniq_4();'];
const text = (l: string[]) => `${l.join('\n')}\n`;

describe("rt47: a line deleted by the toolset's own edit_file, then its text re-added", () => {
  for (const tool of ['edit_file', 'write_file', 'patch_file'] as const) {
    it(`u2 deleted by ${tool}, then u1 rewritten as u2 by ${tool}: read's 2#B refused`, async () => {
      const { ts, file, vpath } = setup(text(U));
      const a = await readAnchors(ts, vpath);
      const b = a[1]!;
      const call = async (before: string[], after: string[], oldS: string, newS: string, hunk: string) => {
        let r: any;
        if (tool === 'edit_file')
          r = await ts.callTool('edit_file', { path: vpath, old_string: oldS, new_string: newS });
        else if (tool === 'write_file')
          r = await ts.callTool('write_file', { path: vpath, content: text(after) });
        else
          r = await ts.callTool('patch_file', {
            path: vpath,
            unified_diff: hunk,
            base_sha256: createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
          });
        expect(r.ok, JSON.stringify(r.error)).toBe(true);
        expect(fs.readFileSync(file, 'utf8')).toBe(text(after));
        void before;
      };
      await call(
        U,
        [U[0]!, U[2]!, U[3]!],
        'uniq_2();\n',
        '',
        `--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,2 @@\n uniq_1();\n-uniq_2();\n uniq_3();\n`,
      );
      await call(
        [U[0]!, U[2]!, U[3]!],
        [U[1]!, U[2]!, U[3]!],
        'uniq_1();',
        'uniq_2();',
        `--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-uniq_1();\n+uniq_2();\n uniq_3();\n`,
      );
      const before = fs.readFileSync(file, 'utf8');
      const r: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: b, content: 'changed();' }],
      });
      const after = fs.readFileSync(file, 'utf8');
      expect(
        r.ok,
        `read's ${b} (u2, deleted by the toolset's own ${tool}) edited the new line: ${JSON.stringify(after)}`,
      ).toBe(false);
      expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    });
  }
});
