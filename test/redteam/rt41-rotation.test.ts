// rt41: a copy moved from one end of a run of alternating twins to the other (a "rotation").
//
// Read: `// M1`, then `a(); b();` three times, then `// M2`. Afterwards the last `b();` is moved to the top
// of the run (or, the same bytes: the first `a();` moved to the bottom). Now the run reads `b(); a();` three
// times. Every copy count between the distinctive neighbours is unchanged and no group slides over an equal
// stretch of its own size, yet two histories leave the same file with the read's lines at different places
// (shifted by one). The file alone cannot say which; the promise says edit_lines must refuse. It follows the
// diff's tie-break and edits the line one below/above the line read in one of the two histories.
// Root cause (src/edit/follow-line.ts slides): only a pure insertion or a pure removal next to the kept
// stretch is checked for an equal-cost slide; here the kept stretch `b a b a b` has a removed `a` on one
// side and an inserted `a` on the other (an equal-cost alternative alignment shifts the whole stretch by one:
// keep `a b a b a`, insert `b` before, remove `b` after). The copy-count check cannot see it either: the
// counts are equal.
import fs from 'node:fs';
import { describe, it } from 'vitest';
import { expectExactOrRefused, readAnchors, setup } from './rt40-harness.js';

const READ = ['// M1', 'a();', 'b();', 'a();', 'b();', 'a();', 'b();', '// M2'];
const NOW = ['// M1', 'b();', 'a();', 'b();', 'a();', 'b();', 'a();', '// M2'];

async function run(target: number, truthNow: number) {
  const { ts, file, vpath } = setup(`${READ.join('\n')}\n`);
  const anchors = await readAnchors(ts, vpath);
  fs.writeFileSync(file, `${NOW.join('\n')}\n`);
  const before = fs.readFileSync(file, 'utf8');
  const r = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'replace_line', hash: anchors[target]!, content: 'EDITED();' }],
    sanity: 'off',
  });
  const after = fs.readFileSync(file, 'utf8');
  const intended = `${NOW.map((l, i) => (i === truthNow ? 'EDITED();' : l)).join('\n')}\n`;
  expectExactOrRefused(
    r,
    before,
    after,
    intended,
    `${anchors[target]} (read line ${target + 1} is now line ${truthNow + 1}; edited line ${after.split('\n').indexOf('EDITED();') + 1})`,
  );
}

describe('rt41: one twin moved from the end of an alternating run to its start', () => {
  // History 1: the last `b();` (read line 7) moved to the top of the run: read lines 2..6 move down one.
  it('last b() moved to the top: read line 3 (`b();`) is now line 4', () => run(2, 3));
  it('last b() moved to the top: read line 4 (`a();`) is now line 5', () => run(3, 4));
  // History 2: the first `a();` (read line 2) moved to the bottom: read lines 3..7 move up one.
  it('first a() moved to the bottom: read line 3 (`b();`) is now line 2', () => run(2, 1));
});
