// rt45: needless refusals of anchors from the model's latest surface, in a file only the model changed.
// (1) A bare HASH (docs/tools.md: "An anchor may be HASH, LINE#HASH or the whole LINE#HASH|content"), or the
//     HASH with `line`, copied from the latest edit_lines result: resolveHeld looks given anchors up only by
//     the LINE# in the anchor string, so the hash is taken as the READ's, whose line with that text the model
//     deleted: anchor_stale, with a message saying the line "as you were shown it was replaced" — while the
//     latest result shows that very hash for the line.
// (2) The neighbour anchors an anchor_low_entropy error suggests ("Use a distinctive neighbouring line
//     instead (e.g. 6#…)", details.neighbor_anchors) are the current file's own hashes, not remembered as
//     given: one for a line that was a twin in the read (shown then by a context anchor) is refused when the
//     model uses it as told.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAnchors, setup } from './rt40-harness.js';

const text = (l: string[]) => `${l.join('\n')}\n`;

describe('rt45: over-refusal of anchors from the latest surface', () => {
  for (const form of ['HASH', 'HASH with line'] as const)
    it(`(1) ${form} from the latest edit_lines result`, async () => {
      const V0 = ['a();', 'b();', 'foo();', 'c();', 'd();', 'e();', 'f();', 'g();'];
      const { ts, file, vpath } = setup(text(V0));
      const a = await readAnchors(ts, vpath);
      let r: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'delete_line', hash: a[2]! }],
      });
      expect(r.ok).toBe(true);
      r = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'insert_after', hash: a[6]!, content: 'foo();' }],
      });
      expect(r.ok).toBe(true);
      const m = (r.data.diff as string).match(/^\+(\d+)#([0-9a-f]{6})\|foo\(\);$/m)!; // +7#H|foo();
      r = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [
          {
            op: 'replace_line',
            hash: m[2],
            ...(form === 'HASH with line' ? { line: Number(m[1]) } : {}),
            content: 'FOO();',
          },
        ],
      });
      if (form === 'HASH') {
        // A bare hash the read showed for the deleted foo(); and the result for the new one (rt46):
        // either line could be meant, so it is refused and nothing changes.
        expect(r.ok).toBe(false);
        expect(r.error.code).toBe('anchor_stale');
        expect(fs.readFileSync(file, 'utf8')).toBe(
          text(['a();', 'b();', 'c();', 'd();', 'e();', 'f();', 'foo();', 'g();']),
        );
        return;
      }
      expect(r.ok, `${r.error?.code}: ${r.error?.message}`).toBe(true);
      expect(fs.readFileSync(file, 'utf8')).toBe(
        text(['a();', 'b();', 'c();', 'd();', 'e();', 'f();', 'FOO();', 'g();']),
      );
    });

  it('(2) a neighbour anchor suggested by anchor_low_entropy', async () => {
    const V0 = ['dup();', 'a1();', 'a2();', 'a3();', 'a4();', 'a5();', 'dup();', '}', 'x();', '}', 'end();'];
    const { ts, file, vpath } = setup(text(V0));
    const a = await readAnchors(ts, vpath);
    let r: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'delete_line', hash: a[0]! }],
    });
    expect(r.ok).toBe(true); // dup(); is now unique (line 6); `}` at 7 and 9
    const closeOwn = (await import('../../src/edit/line-hash.js')).lineHash('}');
    r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_before', hash: closeOwn, occurrence: 1, content: '// z' }],
    });
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('anchor_low_entropy');
    const suggested = r.error.details.neighbor_anchors as string[];
    expect(suggested[suggested.length === 0 ? 0 : 2]).toMatch(/^6#/); // dup(); just above the `}`
    const six = suggested.find((s) => s.startsWith('6#'))!;
    r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_after', hash: six, content: '// z' }],
    });
    expect(r.ok, `${six}: ${r.error?.code}: ${r.error?.message}`).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe(
      text(['a1();', 'a2();', 'a3();', 'a4();', 'a5();', 'dup();', '// z', '}', 'x();', '}', 'end();']),
    );
  });
});
