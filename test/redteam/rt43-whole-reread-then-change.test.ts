// rt43: rt42-whole-reread, one more change later. Read A shows foo() unique as `2#H` (its own hash). A copy
// of foo() is inserted beside it (which one is the original cannot be told); a whole-file re-read B shows
// both by context anchors. rt42's fix refuses A's `2#H` while the file is as B left it. But after ANY further
// change (here a line appended at the end, outside the toolset or by edit_file), edit_lines takes the ladder:
// B has own hash H at line 2, so `2#H` is followed from B's line 2 — a guess between the two copies.
// Expected: refused (anchor_*), file unchanged. For the copy inserted ABOVE, line 2 is the copy.
import fs from 'node:fs';
import { describe, it } from 'vitest';
import { expectExactOrRefused, readAnchors, setup } from './rt40-harness.js';

const READ = '// head\nfoo();\n// tail\n';
const NOW = '// head\nfoo();\nfoo();\n// tail\n';

describe('rt43: an earlier read anchor after a whole re-read and a later change', () => {
  for (const [history, target] of [
    ['copy inserted ABOVE (the line read is line 3)', 2],
    ['copy inserted BELOW (the line read is line 2)', 1],
  ] as const)
    for (const later of ['outside append', 'edit_file append'] as const)
      it(`${history}, then ${later}`, async () => {
        const { ts, file, vpath } = setup(READ);
        const a = await readAnchors(ts, vpath);
        fs.writeFileSync(file, NOW);
        await readAnchors(ts, vpath); // whole-file re-read
        if (later === 'outside append') fs.appendFileSync(file, '// more\n');
        else
          await ts.callTool('edit_file', {
            path: vpath,
            old_string: '// tail\n',
            new_string: '// tail\n// more\n',
          });
        const before = fs.readFileSync(file, 'utf8');
        const r = await ts.callTool('edit_lines', {
          path: vpath,
          operations: [{ op: 'replace_line', hash: a[1]!, content: 'EDITED();' }],
          sanity: 'off',
        });
        const lines = before.split('\n');
        lines[target] = 'EDITED();';
        expectExactOrRefused(
          r,
          before,
          fs.readFileSync(file, 'utf8'),
          lines.join('\n'),
          `${history}, ${later}`,
        );
      });
});
