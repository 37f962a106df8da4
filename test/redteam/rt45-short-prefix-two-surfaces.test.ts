// rt45: a short (4-digit) anchor prefix that two surfaces showed at the same line number for two different
// lines. The read shows target() as `5#622f9a`; the model's own edits move target() to line 8 and a later
// edit_lines result shows `5#622f1d` for another line (its own hash happens to share the first 4 digits).
// docs/tools.md accepts 4-5 digit prefixes, "taken when exactly one anchor given with that line number
// starts with it" — but the read also showed one at that number. GivenAnchors.lookup only counts the anchors
// given since the read, so `5#622f` is silently taken for the result's line, never checked against the read.
// Expected: refused (the prefix names two shown anchors at line 5), file unchanged — or target() edited.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lineHash } from '../../src/edit/line-hash.js';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const text = (l: string[]) => `${l.join('\n')}\n`;
const A = 'alpha_target();';
function sharing4(of: string): string {
  const want = lineHash(of).slice(0, 4);
  for (let i = 0; ; i++) if (lineHash(`beta_${i}();`).slice(0, 4) === want) return `beta_${i}();`;
}

describe('rt45: a 4-digit prefix shown at one number by the read and by a later result', () => {
  it('the read anchor 5#xxxx (target) is taken for the later result line 5#xxxx', async () => {
    const B = sharing4(A);
    const V0 = ['l1();', 'l2();', 'l3();', 'l4();', A, 'l6();', 'l7();', 'l8();', 'l9();', 'l10();'];
    const { ts, file, vpath } = setup(text(V0));
    const a = await readAnchors(ts, vpath);
    const read5 = a[4]!; // 5#<A>
    let r: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_after', hash: a[0]!, content: 'x1();\nx2();\nx3();' }],
    });
    expect(r.ok).toBe(true);
    // l2(); is now line 5: the model replaces it with B (the result shows 5#<B>, same first 4 digits as A's).
    r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: a[1]!, content: B }],
    });
    expect(r.ok).toBe(true);
    const shownB = (r.data.diff as string).match(/^\+(5#[0-9a-f]{6})\|/m)![1]!;
    expect(shownB.slice(0, 6)).toBe(read5.slice(0, 6)); // both "5#xxxx…"
    expect(shownB).not.toBe(read5);
    const before = fs.readFileSync(file, 'utf8');
    r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: read5.slice(0, 6), content: 'EDITED();' }],
    });
    const after = fs.readFileSync(file, 'utf8');
    if (r.ok) {
      // Only target() (now line 8) is an acceptable hit… but the prefix is ambiguous: refusal expected.
      expect(after, 'the 4-digit prefix matched two shown anchors at line 5; it edited one silently').toBe(
        text([
          'l1();',
          'x1();',
          'x2();',
          'x3();',
          B,
          'l3();',
          'l4();',
          'EDITED();',
          'l6();',
          'l7();',
          'l8();',
          'l9();',
          'l10();',
        ]),
      );
    } else {
      expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    }
  });
});
