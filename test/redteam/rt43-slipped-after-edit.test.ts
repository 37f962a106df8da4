// rt43: found by rt43-surfaces-prop (seed 3). A read shows twins by position anchors (hash of text and line
// number). edit_lines deletes a line above them (the toolset's own edit). The model then uses the read's
// anchor of a twin with a slipped line number. The current file shows that same position-anchor string for
// the twin now sitting at the read's number (another line); resolution takes it, and the check against the
// held read is skipped because the slipped number differs from the read's (checkEarlierRead:
// `line !== shown[0] + 1` → continue). With the exact number the call is refused (anchor_ambiguous);
// with a slipped one the wrong twin is edited. The string with that hash was only ever shown for the line read.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

async function run(lines: string[], del: { start: number; end?: number }, use: number, slip: number) {
  const { ts, file, vpath } = setup(`${lines.join('\n')}\n`);
  const a = await readAnchors(ts, vpath);
  const e: any = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [
      del.end === undefined
        ? { op: 'delete_line', hash: a[del.start]! }
        : { op: 'delete_range', start_hash: a[del.start]!, end_hash: a[del.end]! },
    ],
    sanity: 'off',
  });
  expect(e.ok, JSON.stringify(e.error)).toBe(true);
  const removed = (del.end ?? del.start) - del.start + 1;
  const [num, hash] = a[use]!.split('#') as [string, string];
  const anchor = `${Number(num) + slip}#${hash}`;
  const before = fs.readFileSync(file, 'utf8');
  const r: any = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'replace_line', hash: anchor, content: 'EDITED' }],
    sanity: 'off',
  });
  const after = fs.readFileSync(file, 'utf8');
  const now = use - removed; // where the line read is after the deletion above it
  if (r.ok) {
    const at = after.split('\n').indexOf('EDITED');
    expect(at, `${anchor} (read showed ${a[use]} for the line now at ${now + 1}) edited line ${at + 1}`).toBe(
      now,
    );
  } else {
    expect(ANCHOR_CODES, `${r.error.code}: ${r.error.message}`).toContain(r.error.code);
    expect(after).toBe(before);
  }
}

describe('rt43: a slipped line number on a read anchor after edit_lines shifted the twins', () => {
  it('control: the exact read anchor is refused (or edits the line read)', async () => {
    await run(
      Array.from({ length: 7 }, () => '  return 1;'),
      { start: 0 },
      2,
      0,
    );
  });
  const seven = Array.from({ length: 7 }, () => '  return 1;');
  for (const slip of [1, 2, -1])
    it(`seven identical lines, line 1 deleted, the read's 3#P passed as ${3 + slip}#P`, async () => {
      await run(seven, { start: 0 }, 2, slip);
    });
  const blocks: string[] = ['// head'];
  for (let b = 0; b < 6; b++) blocks.push('function f() {', '  return 1;', '}', '');
  // -4: the line's CURRENT number (the model adjusted for the four lines it deleted above).
  for (const slip of [1, 4, -4])
    it(`repeated blocks, the first block deleted with delete_range, a later "  return 1;" with its number off by ${slip}`, async () => {
      // read: line 11 is the third block's "  return 1;"; the first block (lines 2-5) is deleted.
      await run(blocks, { start: 1, end: 4 }, 10, slip);
    });
});
