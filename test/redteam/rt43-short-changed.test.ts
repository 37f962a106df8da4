// rt43: a 4-hex-digit anchor of a twin (read showed it by its context/position anchor), used AFTER the file
// changed elsewhere since the read. rt40-short-hash covers the unchanged file (fixed there by confirming the
// prefix against the shown anchor at its number). In a changed file, shownInRead ignores hashes under 6 digits
// and the ladder matches the prefix against the lines' OWN hashes: the one own-hash match (another, unique
// line) is followed from the read and edited, reported as line_number_corrected.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lineHash32 } from '../../src/edit/line-hash.js';
import { readAnchors as readAnchorsOf } from '../../src/edit/read-anchors.js';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const BLOCK = ['function f() {', '  return 1;', '}', ''];

/**
 * The file with a crafted last line whose own hash starts with the same 4 digits as the
 * anchor the read shows for line `target` (a twin's anchor depends on the whole file, so
 * the crafted line is searched with the file it ends).
 */
async function build(target: number) {
  const lines = ['// top'];
  for (let b = 0; b < 10; b++) lines.push(...BLOCK);
  const hashes = Uint32Array.from([...lines, ''].map((l) => lineHash32(l)));
  const hex = (h: number) => h.toString(16).padStart(8, '0');
  for (let k = 0; ; k++) {
    const crafted = `const crafted = ${k};`;
    hashes[lines.length] = lineHash32(crafted);
    const four = hex(readAnchorsOf(hashes)[target]!).slice(0, 4);
    if (!hex(hashes[lines.length]!).startsWith(four)) continue;
    lines.push(crafted);
    const probe = setup(`${lines.join('\n')}\n`);
    const shown = (await readAnchors(probe.ts, probe.vpath))[target]!;
    return { lines, shown, four };
  }
}

describe('rt43: a shortened twin anchor after the file changed elsewhere', () => {
  for (const [what, change] of [
    ['an outside append at the end', (f: string, ts: unknown) => fs.appendFileSync(f, '// appended\n')],
    [
      'edit_file of the first line',
      async (_f: string, ts: any) => {
        const r = await ts.callTool('edit_file', {
          path: '/f.txt',
          old_string: '// top\n',
          new_string: '// TOP\n',
        });
        expect(r.ok).toBe(true);
      },
    ],
  ] as const)
    for (const target of [1, 2, 6, 7])
      it(`${what}: twin on line ${target + 1}`, async () => {
        const { lines, shown, four } = await build(target);
        const { ts, file, vpath } = setup(`${lines.join('\n')}\n`);
        const anchors = await readAnchors(ts, vpath);
        expect(anchors[target]).toBe(shown);
        await change(file, ts);
        const before = fs.readFileSync(file, 'utf8');
        const short = `${target + 1}#${four}`;
        const r = await ts.callTool('edit_lines', {
          path: vpath,
          operations: [{ op: 'replace_line', hash: short, content: 'EDITED' }],
          sanity: 'off',
        });
        const after = fs.readFileSync(file, 'utf8');
        if (r.ok) {
          const now = before.split('\n');
          const edited = after.split('\n').indexOf('EDITED');
          expect(
            edited,
            `${short} (read showed ${shown}|${lines[target]}) edited line ${edited + 1} "${now[edited]}"`,
          ).toBe(target);
        } else {
          expect([...ANCHOR_CODES, 'invalid_argument']).toContain(r.error.code);
          expect(after).toBe(before);
        }
      });
});
