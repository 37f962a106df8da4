// rt40: an outside write that adds or removes a copy of a line (or block) right next to it.
//
// Two different histories can leave the same file: a copy of `foo();` inserted ABOVE the read line, or BELOW
// it; the first of two identical blocks deleted, or the second. The read and the file on disk are byte for
// byte the same in both histories, but the line the model read is at a different place in each. edit_lines
// has no way to tell them apart, so the only answer that keeps "edits exactly the line read, or refuses" in
// both histories is a refusal. Today it follows the line diff's tie-break (common prefix first,
// src/edit/map-line.ts lineDiff / idDiff) and edits whichever copy the diff kept: for one of the two
// histories that is the twin, not the line read. followLine (src/edit/follow-line.ts) only checks the
// twin's nearest distinctive neighbours, which are untouched here, and does not check lines unique in the
// read at all; "Lines inserted or removed between them are fine: that diff is forced" does not hold when
// the lines inserted or removed are copies of the target.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectExactOrRefused, readAnchors, setup } from './rt40-harness.js';

async function run(read: string[], target: number, now: string[], truthNow: number | null) {
  const { ts, file, vpath } = setup(`${read.join('\n')}\n`);
  const anchors = await readAnchors(ts, vpath);
  fs.writeFileSync(file, `${now.join('\n')}\n`); // another process
  const before = fs.readFileSync(file, 'utf8');
  const r = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'replace_line', hash: anchors[target]!, content: 'EDITED();' }],
    sanity: 'off',
  });
  const after = fs.readFileSync(file, 'utf8');
  const intended =
    truthNow === null ? '<refusal>' : `${now.map((l, i) => (i === truthNow ? 'EDITED();' : l)).join('\n')}\n`;
  return { r, before, after, intended, anchor: anchors[target]! };
}

describe('rt40: a copy of the line read added or removed next to it (equal-cost histories)', () => {
  const READ = ['head();', 'foo();', 'end();'];
  const NOW = ['head();', 'foo();', 'foo();', 'end();']; // the same file whichever side the copy went
  it('copy inserted above the line read: the line read is now line 3', async () => {
    const x = await run(READ, 1, NOW, 2);
    expectExactOrRefused(x.r, x.before, x.after, x.intended, `${x.anchor} (copy above)`);
  });
  it('copy inserted below the line read: the line read is still line 2', async () => {
    const x = await run(READ, 1, NOW, 1);
    expectExactOrRefused(x.r, x.before, x.after, x.intended, `${x.anchor} (copy below)`);
  });

  const BLOCK = ['if (retry) {', '  attempt();', '}'];
  const TWO = ['// section A', ...BLOCK, ...BLOCK, '// section B'];
  const ONE = ['// section A', ...BLOCK, '// section B'];
  it('first of two identical blocks deleted: its `attempt();` is gone', async () => {
    const x = await run(TWO, 2, ONE, null);
    if (x.r.ok)
      expect.fail(
        `${x.anchor} (read line 3, deleted) was applied to line ${x.after.split('\n').indexOf('EDITED();') + 1}, the twin in the block that stayed`,
      );
    expectExactOrRefused(x.r, x.before, x.after, x.intended);
  });
  it('second of two identical blocks deleted: the first block`s `attempt();` is still line 3', async () => {
    const x = await run(TWO, 2, ONE, 2);
    expectExactOrRefused(x.r, x.before, x.after, x.intended, `${x.anchor} (second block deleted)`);
  });
});
