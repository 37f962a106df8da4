// rt46: an anchor an edit_lines result gave, forgotten after more than 4,096 newer anchors (pages of a later
// version), is then taken by the "shown now at exactly its number" rule for a different line: the given
// line was deleted by an outside change the toolset saw (a page of that version), then a NEW line with the
// same text was written at the same number. Promise: names the line it was shown with, or refused.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, setup } from './rt40-harness.js';

const N = 4300;
const V0 = Array.from({ length: N }, (_, i) => `line_${i + 1}();`);
const text = (l: string[]) => `${l.join('\n')}\n`;

async function pages(ts: any, vpath: string, from: number) {
  let off: number | null = from;
  while (off != null) {
    const r: any = await ts.callTool('read_file', { path: vpath, hashes: true, offset: off });
    expect(r.ok).toBe(true);
    off = r.data.next_offset;
  }
}

describe('rt46: an evicted given anchor', () => {
  it('result anchor for X, 4,096+ newer page anchors, X deleted outside (seen), new same-text line at its number', async () => {
    const { ts, file, vpath } = setup(text(V0));
    await pages(ts, vpath, 1); // hashed read of every page of v0 (held read)
    const r0: any = await ts.callTool('read_file', { path: vpath, hashes: true, offset: 4, limit: 1 });
    const a4 = (r0.data.content as string).split('|')[0];
    const r1: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_after', hash: a4, content: 'foo();' }],
    });
    expect(r1.ok).toBe(true);
    const given = (r1.data.diff as string).match(/^\+(5#[0-9a-f]{6})\|foo\(\);$/m)![1]!;
    // More than 4,096 anchors of this version given by pages (not covering line 5).
    await pages(ts, vpath, 20);
    // Outside: X (foo();) deleted; the toolset sees that version (a page).
    fs.writeFileSync(file, text(V0));
    await ts.callTool('read_file', { path: vpath, hashes: true, offset: 100, limit: 1 });
    // Outside: a new foo(); written at line 5.
    fs.writeFileSync(file, text([...V0.slice(0, 4), 'foo();', ...V0.slice(4)]));
    const before = fs.readFileSync(file, 'utf8');
    const r: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: given, content: 'bar();' }],
    });
    const after = fs.readFileSync(file, 'utf8');
    expect(r.ok, `the deleted line's anchor ${given} edited the new line`).toBe(false);
    expect(ANCHOR_CODES).toContain(r.error.code);
    expect(after).toBe(before);
  }, 60_000);
  it('control: without the 4,096 page anchors the same sequence is refused', async () => {
    const { ts, file, vpath } = setup(text(V0));
    await pages(ts, vpath, 1);
    const r0: any = await ts.callTool('read_file', { path: vpath, hashes: true, offset: 4, limit: 1 });
    const a4 = (r0.data.content as string).split('|')[0];
    const r1: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_after', hash: a4, content: 'foo();' }],
    });
    const given = (r1.data.diff as string).match(/^\+(5#[0-9a-f]{6})\|foo\(\);$/m)![1]!;
    fs.writeFileSync(file, text(V0));
    await ts.callTool('read_file', { path: vpath, hashes: true, offset: 100, limit: 1 });
    fs.writeFileSync(file, text([...V0.slice(0, 4), 'foo();', ...V0.slice(4)]));
    const r: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: given, content: 'bar();' }],
    });
    expect(r.ok).toBe(false);
  }, 60_000);
});
