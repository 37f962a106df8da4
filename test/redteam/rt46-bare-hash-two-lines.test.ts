// rt46: a bare HASH that two surfaces showed for two different lines. Line X (shown as 5#H) is deleted by
// the model's own edit_lines call, then a new line Y with the same text is inserted (its result shows 8#H).
// docs/tools.md: a bare HASH names the line it was given for "when only one line was given with that hash
// and the read shows none"; here two lines were shown with H (and, in the first case, the read shows it).
// The call edits Y. The model may mean X (the anchor it read): the toolset cannot tell, so it must refuse.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const text = (l: string[]) => `${l.join('\n')}\n`;
const V0 = [
  'alpha();',
  'beta();',
  'gamma();',
  'delta();',
  'foo();',
  'eps();',
  'zeta();',
  'eta();',
  'theta();',
];

describe('rt46: bare hash shown for a deleted line and a new line', () => {
  it('X from the read, deleted by edit_lines, Y inserted by edit_lines; bare H', async () => {
    const { ts, file, vpath } = setup(text(V0));
    const a = await readAnchors(ts, vpath);
    const H = a[4]!.split('#')[1]!;
    const r1: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'delete_line', hash: a[4] }],
    });
    expect(r1.ok).toBe(true);
    // Insert after eta(); (line 7 now) using the read's anchor for eta();
    const r2: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_after', hash: a[7], content: 'foo();' }],
    });
    expect(r2.ok, JSON.stringify(r2.error)).toBe(true);
    expect(r2.data.diff).toMatch(new RegExp(`^\\+8#${H}\\|foo\\(\\);$`, 'm'));
    const before = fs.readFileSync(file, 'utf8');
    const r: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: H, content: 'bar();' }],
    });
    expect(r.ok, `bare ${H} (shown for X at 5 by the read and for Y at 8 by a result) edited Y`).toBe(false);
    expect(ANCHOR_CODES).toContain(r.error.code);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });
  it('X from a result, deleted by edit_lines, Y inserted by edit_lines; bare H', async () => {
    const base = V0.filter((l) => l !== 'foo();');
    const { ts, file, vpath } = setup(text(base));
    const a = await readAnchors(ts, vpath);
    const r0: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_after', hash: a[3], content: 'foo();' }],
    });
    const x = (r0.data.diff as string).match(/^\+(5#[0-9a-f]{6})\|foo\(\);$/m)![1]!;
    const H = x.split('#')[1]!;
    const r1: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'delete_line', hash: x }],
    });
    expect(r1.ok).toBe(true);
    const r2: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_after', hash: a[6], content: 'foo();' }],
    });
    expect(r2.ok, JSON.stringify(r2.error)).toBe(true);
    const before = fs.readFileSync(file, 'utf8');
    const r: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: H, content: 'bar();' }],
    });
    expect(
      r.ok,
      `bare ${H} (given for X, then for Y) edited Y: ${JSON.stringify(fs.readFileSync(file, 'utf8'))}`,
    ).toBe(false);
    expect(ANCHOR_CODES).toContain(r.error.code);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });
});
