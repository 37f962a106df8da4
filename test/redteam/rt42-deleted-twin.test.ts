// rt42: the line read was DELETED, and the same number of edits explains the file with
// it kept and one of its twins deleted instead. followLine only asks whether the kept
// line can be placed elsewhere (forward vs reversed diff, slides of the group next to
// its stretch); an equal-cost alignment that deletes it and keeps a twin in its place
// (the removed twin NOT next to the line's stretch) is not considered, so the edit
// lands on the twin. Each case: one (read, file) pair, one history in which the read
// line is gone. Only anchor_stale / another anchor_* refusal is right.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const SYM: Record<string, string> = { x: 'call();', y: 'other();' };
const text = (s: string) => `${['// head', ...[...s].map((c) => SYM[c]!), '// foot'].join('\n')}\n`;

const cases = [
  // read: other call call. The last call is deleted and a call is added on top:
  // now call other call, with the read's line 3 gone (the "call" at line 4 is the read's line 2).
  // Equally: "call" (read line 2) deleted and one added on top, read line 3 kept at line 4.
  { history: 'y x x: delete the last x, insert an x on top', read: 'yxx', now: 'xyx', at: 2 },
  // read: call call call. The first call is deleted, "other" added after each of the two left.
  { history: 'x x x: delete the first x, add y after each other x', read: 'xxx', now: 'xyxy', at: 0 },
  // read: call other other. The last other is deleted, an other added on top.
  { history: 'x y y: delete the last y, insert a y on top', read: 'xyy', now: 'yxy', at: 2 },
];

describe('rt42: the line read was deleted, a twin sits where the diff puts it', () => {
  for (const c of cases)
    it(c.history, async () => {
      const { ts, file, vpath } = setup(text(c.read));
      const anchors = await readAnchors(ts, vpath);
      fs.writeFileSync(file, text(c.now));
      const before = fs.readFileSync(file, 'utf8');
      const r = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: anchors[c.at + 1]!, content: 'EDITED();' }],
        sanity: 'off',
      });
      const after = fs.readFileSync(file, 'utf8');
      expect(r.ok, `edit_lines edited a line although the line read is gone:\n${after}`).toBe(false);
      if (!r.ok) expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    });
});
