// rt43: `occurrence` is counted in the CURRENT file, not in the read it was chosen from. A hashed read shows
// two unique lines whose anchors share their first four hex digits (`3#3d71xx|foo();` and
// `9#3d71yy|const crafted = k;`); the model picks the second with {hash: '3d71', occurrence: 2}. Since the
// read, a copy of foo() was written at the top (outside the toolset, or by write_file). edit_lines counts the
// lines whose OWN hash starts with 3d71 in the file as it is now (copy, foo, crafted) and edits the second:
// the original foo() line, which still exists — neither the line meant nor a copy of it.
// Expected: the crafted line (the read's 2nd occurrence, followed) or a refusal with the file unchanged.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lineHash32 } from '../../src/edit/line-hash.js';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const hx = (n: number) => n.toString(16).padStart(8, '0');

function build(digits: number) {
  const four = hx(lineHash32('foo();')).slice(0, digits);
  // Found by counting k up from 0 (kept: the search takes seconds for five digits).
  let k = digits === 4 ? 22714 : 4175493;
  while (!hx(lineHash32(`const crafted = ${k};`)).startsWith(four)) k++;
  const lines = [
    '// top',
    'x();',
    'foo();',
    'y();',
    '// a',
    '// b',
    '// c',
    '// d',
    `const crafted = ${k};`,
    '// end',
  ];
  return { lines, four };
}

describe('rt43: occurrence after the file changed', () => {
  for (const how of ['outside', 'write_file'] as const)
    for (const withPrefix of [4, 5] as const)
      it(`a copy of the first match written at the top (${how}), ${withPrefix}-digit hash`, async () => {
        const { lines, four } = build(withPrefix);
        const { ts, file, vpath } = setup(`${lines.join('\n')}\n`);
        const a = await readAnchors(ts, vpath);
        expect(a[2]!.split('#')[1]!.startsWith(four) && a[8]!.split('#')[1]!.startsWith(four)).toBe(true);
        const hash = four; // the shared prefix
        const now = ['foo();', ...lines];
        if (how === 'outside') fs.writeFileSync(file, `${now.join('\n')}\n`);
        else
          expect((await ts.callTool('write_file', { path: vpath, content: `${now.join('\n')}\n` })).ok).toBe(
            true,
          );
        const before = fs.readFileSync(file, 'utf8');
        const r = await ts.callTool('edit_lines', {
          path: vpath,
          operations: [{ op: 'replace_line', hash, occurrence: 2, content: 'EDITED' }],
          sanity: 'off',
        });
        const after = fs.readFileSync(file, 'utf8');
        if (r.ok) {
          const at = after.split('\n').indexOf('EDITED');
          expect(
            at,
            `occurrence 2 of ${hash} (the read's line 9, "${lines[8]}") edited line ${at + 1} "${now[at]}"`,
          ).toBe(9);
        } else {
          expect(ANCHOR_CODES, `${r.error.code}: ${r.error.message}`).toContain(r.error.code);
          expect(after).toBe(before);
        }
      });
});
