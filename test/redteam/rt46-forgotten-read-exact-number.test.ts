// rt46: an anchor from a whole hashed read, after a second whole re-read made the toolset drop that read,
// is accepted by the "an anchor the file shows now at exactly its number names that line" rule for a
// DIFFERENT line that an outside change later put at that number with the same text.
// Promise: an anchor names the line it was shown next to, or the call is refused with nothing changed.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const text = (l: string[]) => `${l.join('\n')}\n`;
const V0 = ['alpha();', 'beta();', 'gamma();', 'delta();', 'foo();', 'eps();', 'zeta();', 'eta();'];

async function attempt(variant: 'deleted-then-new' | 'moved-away' | 'trailing-ws') {
  const { ts, file, vpath } = setup(text(V0));
  const a1 = await readAnchors(ts, vpath); // read 1: 5#H for foo(); (line X)
  const shown = a1[4]!;
  expect(shown.startsWith('5#')).toBe(true);
  // Outside change 1: X is deleted (variant moved-away: X is changed).
  const V1 =
    variant === 'moved-away'
      ? ['alpha();', 'beta();', 'gamma();', 'delta();', 'eps();', 'zeta();', 'eta();', 'foo(1);']
      : ['alpha();', 'beta();', 'gamma();', 'delta();', 'eps();', 'zeta();', 'eta();'];
  fs.writeFileSync(file, text(V1));
  // Whole re-read: it shows no foo(); at all. The toolset now holds this read.
  const a2 = await readAnchors(ts, vpath);
  expect(a2).not.toContain(shown);
  // Outside change 2: a NEW line with the same text (a different line: X was gone) lands at line 5.
  const y = variant === 'trailing-ws' ? 'foo();   ' : 'foo();';
  const V2 = [...V1.slice(0, 4), y, ...V1.slice(4)];
  fs.writeFileSync(file, text(V2));
  const before = fs.readFileSync(file, 'utf8');
  // The model uses the anchor read 1 showed for X.
  const r: any = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'replace_line', hash: shown, content: 'bar();' }],
  });
  const after = fs.readFileSync(file, 'utf8');
  expect(r.ok, `read 1's ${shown} (line X, deleted) edited another line: ${JSON.stringify(after)}`).toBe(
    false,
  );
  expect(ANCHOR_CODES).toContain(r.error.code);
  expect(after).toBe(before);
}

describe('rt46: a dropped read’s anchor taken at its exact number for a new line', () => {
  it('X deleted, whole re-read, new line with X’s text written at X’s number', () =>
    attempt('deleted-then-new'));
  it('X changed and moved, whole re-read, new line with X’s old text at X’s number', () =>
    attempt('moved-away'));
  it('same, the new line differs only by trailing whitespace', () => attempt('trailing-ws'));
});

describe('rt46: only the model changed the file', () => {
  it('X deleted by edit_lines, whole re-read, a new foo(); added by edit_file at line 5, read 1’s 5#H used', async () => {
    const { ts, file, vpath } = setup(text(V0));
    const a1 = await readAnchors(ts, vpath);
    const shown = a1[4]!;
    const r1: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'delete_line', hash: shown }],
    });
    expect(r1.ok).toBe(true);
    await readAnchors(ts, vpath); // whole re-read: no foo();
    // The model adds a call after delta(); with edit_file (no anchors shown for it); it lands at line 5.
    const r2: any = await ts.callTool('edit_file', {
      path: vpath,
      old_string: 'eps();',
      new_string: 'foo();\neps();',
    });
    expect(r2.ok, JSON.stringify(r2.error)).toBe(true);
    const before = fs.readFileSync(file, 'utf8');
    expect(before.split('\n')[4]).toBe('foo();');
    const r: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: shown, content: 'bar();' }],
    });
    const after = fs.readFileSync(file, 'utf8');
    expect(r.ok, `read 1's ${shown} (for the deleted X) edited the new line: ${JSON.stringify(after)}`).toBe(
      false,
    );
    expect(ANCHOR_CODES).toContain(r.error.code);
    expect(after).toBe(before);
  });
});
