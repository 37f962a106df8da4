// rt41: a copy removed from a long run of identical lines (more than 64 either side of the line read),
// with another line inserted elsewhere in the run.
//
// Read: `// H`, 200 × `item();`, `// F`. The model holds the anchor of read line 101 (the 100th item).
// Afterwards item 10 is deleted and `y();` is inserted after item 150 (one outside write). The read line is
// now line 100. Another history gives the same bytes with it still at line 101 (item 150 deleted instead of
// item 10), so the file alone cannot say where it is: the promise says refuse. edit_lines edits line 101.
// Root cause (src/edit/follow-line.ts followLine): the copy-count check needs a distinctive neighbour on
// each side within NEIGHBOUR_REACH (64) lines; in a longer run both edges stay undefined and the check is
// skipped. slides() does not fire either: the group next to the kept stretch (the prefix) is a replacement
// (an `item();` removed and `y();` inserted), not a pure insertion or removal.
import fs from 'node:fs';
import { describe, it } from 'vitest';
import { expectExactOrRefused, readAnchors, setup } from './rt40-harness.js';

const items = (n: number) => Array.from({ length: n }, () => 'item();');

async function run(now: string[], target: number, truthNow: number, what: string) {
  const READ = ['// H', ...items(200), '// F'];
  const { ts, file, vpath } = setup(`${READ.join('\n')}\n`);
  const anchors = await readAnchors(ts, vpath);
  fs.writeFileSync(file, `${now.join('\n')}\n`);
  const before = fs.readFileSync(file, 'utf8');
  const r = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'replace_line', hash: anchors[target]!, content: 'EDITED();' }],
    sanity: 'off',
  });
  const after = fs.readFileSync(file, 'utf8');
  const intended = `${now.map((l, i) => (i === truthNow ? 'EDITED();' : l)).join('\n')}\n`;
  expectExactOrRefused(
    r,
    before,
    after,
    intended,
    `${what}: ${anchors[target]} (read line ${target + 1} is now line ${truthNow + 1}; edited line ${after.split('\n').indexOf('EDITED();') + 1})`,
  );
}

describe('rt41: copy removed far away inside a long run of twins', () => {
  it('item 10 deleted, y() inserted after item 150: read line 101 is now line 100', () =>
    run(['// H', ...items(149), 'y();', ...items(50), '// F'], 100, 99, 'delete item 10, insert after 150'));
  it('y() inserted after item 50, item 190 deleted: read line 101 is now line 102', () =>
    run(['// H', ...items(50), 'y();', ...items(149), '// F'], 100, 101, 'insert after 50, delete item 190'));
  it('insertion of a distinct line only (no copy removed) is still followed', () =>
    run(['// H', ...items(50), 'y();', ...items(150), '// F'], 100, 101, 'insert only'));
});
