// rt42: an anchor from read A, then the file changes, then a WHOLE-file hashed re-read B.
// The model still holds A's anchors. A showed a unique line by its own hash ("2#<own>");
// B shows that line's twins by context/position anchors, so "2#<own>" is not one of
// B's anchors: it can only be A's. Without the re-read edit_lines refuses it (anchor_stale:
// the copy inserted beside it could be either). After the re-read, the exact-mode rung
// (confirmedUnchanged: "the line numbered 2 has this own hash") takes it at face value and
// edits line 2, a guess between two identical copies.
// Fixed by one kind of anchor everywhere: edit_lines results (and error candidates) show the
// anchors a read would show, so an own-hash anchor of a line reads show otherwise can only be
// from an older read, and exact mode refuses it (anchor_stale) instead of guessing.
import fs from 'node:fs';
import { describe, it } from 'vitest';
import { expectExactOrRefused, readAnchors, setup } from './rt40-harness.js';

const READ = '// head\nfoo();\n// tail\n';
const NOW = '// head\nfoo();\nfoo();\n// tail\n';

describe('rt42: an earlier read anchor after a whole-file re-read', () => {
  for (const [history, target] of [
    ['a copy of foo() inserted ABOVE it (the line read is now line 3)', 2],
    ['a copy of foo() inserted BELOW it (the line read is still line 2)', 1],
  ] as const)
    it(history, async () => {
      const { ts, file, vpath } = setup(READ);
      const a = await readAnchors(ts, vpath);
      fs.writeFileSync(file, NOW);
      await readAnchors(ts, vpath); // whole-file re-read
      const before = fs.readFileSync(file, 'utf8');
      const r = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: a[1]!, content: 'EDITED();' }],
        sanity: 'off',
      });
      const lines = NOW.split('\n');
      lines[target] = 'EDITED();';
      expectExactOrRefused(r, before, fs.readFileSync(file, 'utf8'), lines.join('\n'), history);
    });
});
