// rt46: "an anchor the file shows now at exactly its number names that line" compares only the anchor's six
// hex digits (24 bits) with the file now — not the text of the line the model was shown. A different line
// whose hash shares the 24-bit prefix (found by brute force in ~10 s; by chance about one pair per 4,096 lines
// among 4,096-line files) is taken for the line read. X = `  total += price * qty;` (shown 3#H), Y =
// `  total -= price * qty; // l58d1` (another text, same 6-digit anchor). docs/tools.md: "A line is followed
// only to a line with the same text … not just the same hash".
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lineHash32 } from '../../src/edit/line-hash.js';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const X = '  total += price * qty;';
const Y = '  total -= price * qty; // l58d1';
const V0 = ['function sum(items) {', '  let total = 0;', X, '  return total;', '}'];
const text = (l: string[]) => `${l.join('\n')}\n`;

describe('rt46: a 24-bit prefix twin at the exact number', () => {
  it('fixture: different 32-bit hashes, same six-digit anchor', () => {
    expect(lineHash32(Y)).not.toBe(lineHash32(X));
    expect(lineHash32(Y) >>> 8).toBe(lineHash32(X) >>> 8);
  });
  it('X read, X deleted outside, whole re-read, Y (other text) written at X’s number: edits Y', async () => {
    const { ts, file, vpath } = setup(text(V0));
    const a = await readAnchors(ts, vpath);
    const shown = a[2]!; // 3#H for X
    const V1 = V0.filter((l) => l !== X);
    fs.writeFileSync(file, text(V1));
    await readAnchors(ts, vpath); // whole re-read: no X
    const V2 = [...V1.slice(0, 2), Y, ...V1.slice(2)];
    fs.writeFileSync(file, text(V2));
    const before = fs.readFileSync(file, 'utf8');
    const r: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: shown, content: '  total += price * qty * 2;' }],
    });
    const after = fs.readFileSync(file, 'utf8');
    expect(r.ok, `X's anchor ${shown} overwrote another agent's line Y: ${JSON.stringify(after)}`).toBe(
      false,
    );
    expect(ANCHOR_CODES).toContain(r.error.code);
    expect(after).toBe(before);
  });
  // Open (documented): without a hashed read held under this toolset, an anchor is checked against the
  // line at its number by its six hex digits only; a crafted 24-bit collision there is taken.
  it.fails('read by toolset A, X changed to Y by another agent, edit through toolset B: edits Y', async () => {
    const { ts: a, file, vpath, dir } = setup(text(V0));
    const b = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const shown = (await readAnchors(a, vpath))[2]!;
    const V1 = V0.slice();
    V1[2] = Y;
    fs.writeFileSync(file, text(V1));
    const before = fs.readFileSync(file, 'utf8');
    const r: any = await b.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'delete_line', hash: shown }],
    });
    const after = fs.readFileSync(file, 'utf8');
    expect(r.ok, `X's anchor ${shown} deleted Y (another text): ${JSON.stringify(after)}`).toBe(false);
    expect(ANCHOR_CODES).toContain(r.error.code);
    expect(after).toBe(before);
  });
  it('control: with the read held, X changed to Y is refused', async () => {
    const { ts, file, vpath } = setup(text(V0));
    const shown = (await readAnchors(ts, vpath))[2]!;
    const V1 = V0.slice();
    V1[2] = Y;
    fs.writeFileSync(file, text(V1));
    const r: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'delete_line', hash: shown }],
    });
    expect(r.ok).toBe(false);
  });
});
