// rt44: an anchor from an edit_lines result the toolset no longer holds (a later result, or a later page
// read, replaced the "fresh" anchors), for a line that result added. That line was replaced since; another
// line with the same text exists elsewhere (written independently — not the line shown). The fallback for
// anchors "from a read the toolset no longer holds" takes any line that has the hash as its own, whatever
// line number came with it, so the other line is edited (reported as line_number_corrected).
// The promise: the anchor names the line that result showed; it was replaced, so only a refusal is right.
// In variant "own edits only", every change was made by edit_lines itself: the toolset carries the read's
// lines exactly through its own edits, yet the result's anchor is not carried.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const V0 = ['function a() {', '  init();', '  done();', '}', 'function b() {', '  go();', '}'];
const text = (l: string[]) => `${l.join('\n')}\n`;

async function scenario(variant: 'own edits only' | 'outside + page read' | 'outside + later result') {
  const { ts, file, vpath } = setup(text(V0));
  const a0 = await readAnchors(ts, vpath);
  // R1: the model adds `  return null;` to a() after `  init();`.
  const r1: any = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'insert_after', hash: a0[1]!, content: '  return null;' }],
  });
  expect(r1.ok, JSON.stringify(r1.error)).toBe(true);
  const m = (r1.data.diff as string).match(/^\+(3#[0-9a-f]{6})\| {2}return null;$/m);
  expect(m, r1.data.diff).not.toBeNull();
  const shown = m![1]!; // R1 shows the added line as 3#H
  // Now: a() { init(); return null; done(); }  b() { go(); }
  if (variant === 'own edits only') {
    // R2: the model changes that line and, in b(), writes a `  return null;` of its own.
    const r2: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [
        { op: 'replace_line', hash: shown, content: '  return undefined;' },
        { op: 'insert_after', hash: a0[5]!, content: '  return null;' },
      ],
    });
    expect(r2.ok, JSON.stringify(r2.error)).toBe(true);
    // R3: an unrelated edit at the top (its result is the latest surface now).
    const r3: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_before', hash: a0[0]!, content: '// header' }],
    });
    expect(r3.ok, JSON.stringify(r3.error)).toBe(true);
  } else {
    // Another agent: a()'s line changed, b() gains a `  return null;` of its own.
    fs.writeFileSync(
      file,
      text([
        'function a() {',
        '  init();',
        '  return undefined;',
        '  done();',
        '}',
        'function b() {',
        '  go();',
        '  return null;',
        '}',
      ]),
    );
    if (variant === 'outside + page read') {
      const p: any = await ts.callTool('read_file', { path: vpath, hashes: true, offset: 1, limit: 1 });
      expect(p.ok).toBe(true);
    } else {
      const cur = fs.readFileSync(file, 'utf8');
      // edit the first line by its own (unique) hash from the first read
      const r2: any = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'replace_line', hash: a0[0]!, content: 'function a2() {' }],
      });
      expect(r2.ok, JSON.stringify(r2.error) + cur).toBe(true);
    }
  }
  const before = fs.readFileSync(file, 'utf8');
  const r: any = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'replace_line', hash: shown, content: '  return 42;' }],
    sanity: 'off',
  });
  const after = fs.readFileSync(file, 'utf8');
  return { r, before, after, shown };
}

describe("rt44: an older edit_lines result's anchor for a line since replaced; same text elsewhere", () => {
  for (const variant of ['own edits only', 'outside + page read', 'outside + later result'] as const)
    it(`${variant}: refused, never the other line`, async () => {
      const { r, before, after, shown } = await scenario(variant);
      expect(
        r.ok,
        r.ok ? `${shown} edited another line: ${r.data.diff} ${JSON.stringify(r.data.auto_corrections)}` : '',
      ).toBe(false);
      expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    });
});
