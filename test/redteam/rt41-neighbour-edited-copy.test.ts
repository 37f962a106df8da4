// rt41: a copy of a line added right beside it while its nearest distinctive neighbour was edited.
//
// The read shows `target();` once, between `// M1` and `// M2`. Afterwards (outside writes, or edit_file)
// `// M1` is edited AND a copy of `target();` is added next to it. Two histories leave the same bytes: the
// copy went above the line read, or below it. The file alone cannot say which `target();` was read, so the
// promise says edit_lines must refuse. It edits one of them (the diff's tie-break), so in one of the two
// histories it edits the copy, not the line read.
// Root cause (src/edit/follow-line.ts followLine): the copy-count check between the nearest distinctive
// neighbours only runs when both edges are found; for a line unique in the read (not a twin) an edge whose
// distinctive neighbour was changed is left undefined (`if (twin) return 'unsure'` only for twins), so no
// copies are counted at all. slides() does not help: the group next to the kept stretch is a replacement
// (removed AND inserted), which slides() never considers.
import fs from 'node:fs';
import { describe, it } from 'vitest';
import { expectExactOrRefused, readAnchors, setup } from './rt40-harness.js';

async function run(read: string[], target: number, now: string[], truthNow: number) {
  const { ts, file, vpath } = setup(`${read.join('\n')}\n`);
  const anchors = await readAnchors(ts, vpath);
  fs.writeFileSync(file, `${now.join('\n')}\n`); // another process (or edit_file twice)
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
    `${anchors[target]} (the line read is now line ${truthNow + 1}; edited line ${after.split('\n').indexOf('EDITED();') + 1})`,
  );
}

describe('rt41: copy of a unique line added beside it, nearest distinctive neighbour edited', () => {
  const READ = ['// M1', 'target();', '// M2'];
  // `// M1` edited; a copy of target() added. Same bytes whichever side the copy went.
  const NOW_ABOVE_EDITED = ['// M1 changed', 'target();', 'target();', '// M2'];
  it('neighbour above edited, copy added BELOW the line read (it stays line 2)', () =>
    run(READ, 1, NOW_ABOVE_EDITED, 1));
  it('neighbour above edited, copy added ABOVE the line read (it is now line 3)', () =>
    run(READ, 1, NOW_ABOVE_EDITED, 2));

  const NOW_BELOW_EDITED = ['// M1', 'target();', 'target();', '// M2 changed'];
  it('neighbour below edited, copy added ABOVE the line read (it is now line 3)', () =>
    run(READ, 1, NOW_BELOW_EDITED, 2));
  it('neighbour below edited, copy added BELOW the line read (it stays line 2)', () =>
    run(READ, 1, NOW_BELOW_EDITED, 1));

  // The neighbour itself replaced by the copy: `// M1` deleted and target() duplicated below.
  it('neighbour deleted and a copy added below: the line read is now line 1', () =>
    run(READ, 1, ['target();', 'target();', '// M2'], 0));
});

describe('rt41: a distinctive neighbour moved past the line (the diff drops it, nothing counted)', () => {
  // Read: H, M3, b, c, F. Now: H, b, c, M3, b, F. History 1: `// M3` moved below `c();`, then a copy of b()
  // added after it (the line read is line 2). History 2: copies of `b(); c();` inserted above `// M3`, the
  // read's `c();` deleted (the line read is line 5). Same bytes; `// M3` is still in the file, unique, but the
  // diff keeps `b c` and drops it, so followLine finds no edge above and counts no copies.
  const READ = ['// H', '// M3', 'b();', 'c();', '// F'];
  const NOW = ['// H', 'b();', 'c();', '// M3', 'b();', '// F'];
  it('history 1: the line read is now line 2', () => run(READ, 2, NOW, 1));
  it('history 2: the line read is now line 5', () => run(READ, 2, NOW, 4));
});

describe('rt41: the same gap through delete_range (an extra line deleted)', () => {
  it('read `// m0`, blank, `}`, `c();`; `}` deleted and c() copied below; delete_range blank..c()', async () => {
    const READ = ['// m0', '', '}', 'c();'];
    const { ts, file, vpath } = setup(`${READ.join('\n')}\n`);
    const a = await readAnchors(ts, vpath);
    const now = ['// m0', '', 'c();', 'c();']; // `}` deleted, a copy of c() added below the line read
    fs.writeFileSync(file, `${now.join('\n')}\n`);
    const before = fs.readFileSync(file, 'utf8');
    const r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'delete_range', start_hash: a[1]!, end_hash: a[3]! }],
      sanity: 'off',
    });
    const after = fs.readFileSync(file, 'utf8');
    // The read's blank..c() is now lines 2..3; the copy (line 4) must stay.
    expectExactOrRefused(r, before, after, '// m0\nc();\n', `delete_range ${a[1]}..${a[3]}`);
  });
});
