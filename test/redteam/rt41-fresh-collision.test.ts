// rt41: an anchor string that the read showed for one line and a later result (edit_lines diff, or a
// one-page re-read) shows for ANOTHER line.
//
// The promise holds both: "an anchor from a hashed read_file names the line that read showed" and "anchors
// from the last edit_lines result's diff, and from the latest read's page, name lines as numbered now". When
// the very same `LINE#HASH` string is both (a copy of the line now sits at the read's number), the two rules
// name different lines and only a refusal keeps the promise; edit_lines silently takes the fresh meaning and
// edits the copy, not the line read.
// Root cause (src/edit/apply-line-edits.ts checkEarlierRead): `if (read.fresh.has(`${line}#${hash}`))
// continue;` skips the earlier-read check for any anchor that is also fresh, without checking whether the
// earlier read's line of that anchor is the same line (followLine(earlier, index, shown) === resolved).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectExactOrRefused, readAnchors, setup } from './rt40-harness.js';

describe('rt41: same anchor string, read line vs fresh line', () => {
  it('edit_lines adds a copy of a read line at that line’s number; the read’s anchor is used', async () => {
    const READ = ['a();', 'p();', 'q();', 'c();'];
    const { ts, file, vpath } = setup(`${READ.join('\n')}\n`);
    const R0 = await readAnchors(ts, vpath); // R0[2] = "3#…|q();"
    // One edit by the model: p() replaced by three lines, the middle one a copy of q().
    const e = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: R0[1]!, content: 's();\nq();\nr();' }],
    });
    expect(e.ok).toBe(true);
    // File now: a s q(new, line 3) r q(read line 3, now line 5) c. The diff shows "+3#<hash q>|q();",
    // the very string the read showed for the original q() at line 3.
    const now = ['a();', 's();', 'q();', 'r();', 'q();', 'c();'];
    const before = fs.readFileSync(file, 'utf8');
    expect(before).toBe(`${now.join('\n')}\n`);
    const r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: R0[2]!, content: 'EDITED();' }],
      sanity: 'off',
    });
    const after = fs.readFileSync(file, 'utf8');
    // Read rule: the read's line 3 (now 5). Diff rule: line 3. Both cannot hold: refuse.
    if (r.ok)
      expect.fail(
        `${R0[2]} is both the read's q() (now line 5) and the diff's new q() (line 3); edited line ${after.split('\n').indexOf('EDITED();') + 1} instead of refusing`,
      );
    expectExactOrRefused(r, before, after, '<refusal>');
  });

  it('a one-page re-read shows a twin’s position anchor that the full read showed for another twin', async () => {
    const BLOCK = ['function f() {', '  return 1;', '}', ''];
    const L = ['// top'];
    for (let b = 0; b < 50; b++) L.push(...BLOCK);
    const { ts, file, vpath } = setup(`${L.join('\n')}\n`);
    const first = await readAnchors(ts, vpath);
    const now = [L[0]!, ...BLOCK, ...L.slice(1)]; // a block inserted at the top (outside write)
    fs.writeFileSync(file, `${now.join('\n')}\n`);
    const page = await readAnchors(ts, vpath, { offset: 95, limit: 20 }); // page covering line 103
    const target = 102; // first read's line 103 `  return 1;`, now line 107
    expect(page).toContain(first[target]); // the page shows the same string for today's line 103
    const before = fs.readFileSync(file, 'utf8');
    const r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: first[target]!, content: '  return 2;' }],
      sanity: 'off',
    });
    const after = fs.readFileSync(file, 'utf8');
    if (r.ok)
      expect.fail(
        `${first[target]} names read line 103 (now 107) in the full read and line 103 in the page; edited line ${after.split('\n').indexOf('  return 2;') + 1} instead of refusing`,
      );
    expectExactOrRefused(r, before, after, '<refusal>');
  });
});
