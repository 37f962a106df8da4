// rt40: an anchor from an older hashed read, used after a newer read of only part of the file.
//
// A file of repeated blocks: its twins are shown with position anchors (hash of the line and its line
// number, src/edit/read-anchors.ts positionAnchor). Read it all with hashes; a block is inserted near the
// top (here by edit_file, so the toolset itself made the change; an outside write does the same); the model
// re-reads only the first 10 lines (a partial re-read, e.g. to look at what changed) and then edits line 102
// of the FIRST read by the anchor that read showed. That line is now line 107. The newer read replaced the
// toolset's snapshot (src/tools/read-file.ts: ctx.anchors.set + earlierAnchors.delete), and in it line 103
// is another twin whose position anchor is, bit for bit, the same `103#……` (same line hash, same position,
// same salt): shownInRead (src/edit/resolve-anchor.ts) takes it as exact and edits the twin at line 103, 4
// lines above the line read. Expected: that line (now 107) edited, or an anchor_* refusal with disk unchanged.
// Position anchors that are not read-specific (e.g. not salted with the read's content hash) make an old
// read's anchor indistinguishable from a fresh one.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, approveAll } from '../../src/index.js';
import { expectExactOrRefused, readAnchors, setup } from './rt40-harness.js';

const BLOCK = ['function f() {', '  return 1;', '}', ''];

describe('rt40: an older read’s anchor after a partial re-read', () => {
  for (const [via, gated] of [
    ['edit_file', false],
    ['outside', false],
    ['outside', true],
  ] as const) {
    it(`names the line that read showed (block inserted by ${via}${gated ? ', through ApprovalToolset' : ''})`, async () => {
      const L = ['// top'];
      for (let b = 0; b < 50; b++) L.push(...BLOCK);
      const project = setup(`${L.join('\n')}\n`);
      const { file, vpath } = project;
      const ts = gated ? new ApprovalToolset(project.ts, { approve: approveAll() }) : project.ts;
      const first = await readAnchors(ts, vpath);
      const now = [L[0]!, ...BLOCK, ...L.slice(1)];
      if (via === 'edit_file') {
        const e = await ts.callTool('edit_file', {
          path: vpath,
          old_string: '// top\n',
          new_string: `// top\n${BLOCK.join('\n')}\n`,
        });
        expect(e.ok).toBe(true);
      } else fs.writeFileSync(file, `${now.join('\n')}\n`);
      await readAnchors(ts, vpath, { offset: 1, limit: 10 }); // the newer read: lines 1-10 only
      const target = 102; // first read's line 103, "  return 1;" — now line 107
      const before = fs.readFileSync(file, 'utf8');
      const r = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: first[target]!, content: '  return 2;' }],
        sanity: 'off',
      });
      const after = fs.readFileSync(file, 'utf8');
      const intended = now.slice();
      intended[target + BLOCK.length] = '  return 2;';
      expectExactOrRefused(
        r,
        before,
        after,
        `${intended.join('\n')}\n`,
        `${first[target]} (first read line ${target + 1}, now ${target + 1 + BLOCK.length}) applied at line ${after.split('\n').indexOf('  return 2;') + 1}`,
      );
    });
  }
});
