// rt40: a 4-hex-digit anchor (edit_lines accepts 4-8 digits) cut from the anchor the read showed for a twin.
//
// A file of repeated blocks, unchanged since the hashed read. Its line 7, `  return 1;`, is a twin, so the
// read shows it with a position anchor (7#3d71e9 here), not its own line hash. The model passes that anchor
// shortened to four digits, `7#3d71`, with the right line number. Another line of the file, line 42 (a
// unique line, shown as 42#3d7132), has an own line hash that also starts with 3d71 (1 line in 65,536 does,
// so in files of some tens of thousands of lines this is common; the test builds it with a chosen constant).
// The read showed two anchors starting with 3d71 and the line number says which one is meant; edit_lines
// edits line 42 instead and reports it as `line_number_corrected`. Root cause: src/edit/resolve-anchor.ts —
// (The anchors named here are from before twins' anchors were bound to the file's version.)
// shownInRead ignores hashes under 6 digits, and confirmedUnchanged then matches the prefix against the
// lines' OWN hashes (`index.candidates`: a twin's own hash is not what the read showed for it), and a single
// own-hash match wins over the line number given.
// Expected: line 7 edited (its shown anchor starts with 3d71 and the number says 7), or a refusal
// (anchor_* / invalid_argument) with the file unchanged. Never line 42.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lineHash32 } from '../../src/edit/line-hash.js';
import { readAnchors as readAnchorsOf } from '../../src/edit/read-anchors.js';
import { readAnchors, setup } from './rt40-harness.js';

const BLOCK = ['function f() {', '  return 1;', '}', ''];

describe('rt40: a shortened anchor of a twin', () => {
  it('edits the line the read showed with that anchor, or refuses — never a line whose own hash shares the digits', async () => {
    const lines = ['// top'];
    for (let b = 0; b < 10; b++) lines.push(...BLOCK);
    const target = 6; // line 7, "  return 1;" (a twin)
    // The twin's shown anchor depends on the whole file (its version): the crafted last line is
    // searched with the file it ends, so its own hash shares four digits with that anchor.
    const hashes = Uint32Array.from([...lines, ''].map((l) => lineHash32(l)));
    const hex = (h: number) => h.toString(16).padStart(8, '0');
    let four = '';
    for (let k = 0; ; k++) {
      const crafted = `const crafted = ${k};`;
      hashes[lines.length] = lineHash32(crafted);
      four = hex(readAnchorsOf(hashes)[target]!).slice(0, 4);
      if (!hex(hashes[lines.length]!).startsWith(four)) continue;
      lines.push(crafted);
      break;
    }

    const { ts, file, vpath } = setup(`${lines.join('\n')}\n`);
    const anchors = await readAnchors(ts, vpath);
    const shown = anchors[target]!;
    expect(shown.split('#')[1]!.startsWith(four)).toBe(true);
    expect(anchors.filter((a) => a.split('#')[1]!.startsWith(four)).length).toBe(2); // 7#3d71e9 and 42#3d7132
    const before = fs.readFileSync(file, 'utf8');
    const short = `${target + 1}#${four}`;
    const r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: short, content: '  return 2;' }],
      sanity: 'off',
    });
    const after = fs.readFileSync(file, 'utf8');
    if (r.ok) {
      const intended = lines.slice();
      intended[target] = '  return 2;';
      expect(
        after,
        `${short} (read showed ${shown} on line ${target + 1}) edited line ${after.split('\n').indexOf('  return 2;') + 1}`,
      ).toBe(`${intended.join('\n')}\n`);
    } else {
      expect(r.error.code).toMatch(/^(anchor_|invalid_argument$)/);
      expect(after).toBe(before);
    }
  });
});
