// rt45: an anchor from an edit_lines result, after the line it named was deleted by someone else and a new
// line with the same text was written elsewhere, then a WHOLE hashed re-read. docs/tools.md: an anchor that
// is not from the read held (a whole re-read replaces it) "is refused (anchor_stale), even when a line with
// that hash exists". Without the re-read the old anchor is refused (the given anchor's line is followed:
// changed). After it, `3#H` is taken as a slipped line number for the read's `8#H` and edits the other line
// (reported only as line_number_corrected). The toolset had given `3#H` for the deleted line: it knows it
// is not a slip. Expected: refused, file unchanged.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const text = (l: string[]) => `${l.join('\n')}\n`;
const V0 = ['a();', 'b();', 'c();', 'd();', 'e();', 'f();', 'g();'];

describe('rt45: an older result anchor after a whole re-read', () => {
  for (const reread of [false, true])
    it(`line deleted outside, same text appended at the end${reread ? ', whole re-read' : ''}`, async () => {
      const { ts, file, vpath } = setup(text(V0));
      const a = await readAnchors(ts, vpath);
      const r1: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'insert_after', hash: a[1]!, content: 'foo();' }],
      });
      expect(r1.ok).toBe(true);
      const given = (r1.data.diff as string).match(/^\+(3#[0-9a-f]{6})\|foo\(\);$/m)![1]!;
      // Outside: the inserted foo(); removed; a new foo(); appended at the end (a different line).
      fs.writeFileSync(file, text([...V0, 'foo();']));
      if (reread) await readAnchors(ts, vpath);
      const before = fs.readFileSync(file, 'utf8');
      const r: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: given, content: 'FOO();' }],
      });
      expect(
        r.ok,
        `edited ${JSON.stringify(fs.readFileSync(file, 'utf8'))} ${JSON.stringify(r.data?.auto_corrections)}`,
      ).toBe(false);
      expect(ANCHOR_CODES).toContain(r.error.code);
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
    });
});
