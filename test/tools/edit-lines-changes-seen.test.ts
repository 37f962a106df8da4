import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAnchors, setup } from '../redteam/rt40-harness.js';

const text = (lines: string[]) => `${lines.join('\n')}\n`;
const LINES = Array.from({ length: 12 }, (_, i) => `line_${i}();`);

/** An outside change (a line added at the top), then a one-line page read: a change the toolset saw. */
async function seenChange(
  ts: Awaited<ReturnType<typeof setup>>['ts'],
  file: string,
  vpath: string,
  k: number,
) {
  fs.writeFileSync(file, `// outside ${k}\n${fs.readFileSync(file, 'utf8')}`);
  const r = await ts.callTool('read_file', { path: vpath, hashes: true, offset: 1, limit: 1 });
  expect(r.ok).toBe(true);
}

describe('edit_lines after changes made elsewhere that the toolset saw', () => {
  it('follows the read’s line through each seen change (here four)', async () => {
    const { ts, file, vpath } = setup(text(LINES));
    const anchors = await readAnchors(ts, vpath);
    for (let k = 0; k < 4; k++) await seenChange(ts, file, vpath, k);
    const r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: anchors[5]!, content: 'changed();' }],
    });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const now = fs.readFileSync(file, 'utf8').split('\n');
    expect(now[4 + 5]).toBe('changed();');
    expect(now.filter((l) => l === 'changed();')).toHaveLength(1);
  });

  it('refuses the read’s anchors after more changes than it follows, and writes nothing', async () => {
    const { ts, file, vpath } = setup(text(LINES));
    const anchors = await readAnchors(ts, vpath);
    for (let k = 0; k < 5; k++) await seenChange(ts, file, vpath, k);
    const before = fs.readFileSync(file, 'utf8');
    const r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: anchors[5]!, content: 'changed();' }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('anchor_stale');
    expect(r.error.message).toMatch(/too many times/);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('a line a seen change deleted stays deleted when its text comes back', async () => {
    const { ts, file, vpath } = setup(text(LINES));
    const anchors = await readAnchors(ts, vpath);
    // line_3 deleted elsewhere; the toolset sees that version; then it is written back, elsewhere.
    fs.writeFileSync(file, text(LINES.filter((_, i) => i !== 3)));
    expect((await ts.callTool('read_file', { path: vpath, hashes: true, offset: 1, limit: 1 })).ok).toBe(
      true,
    );
    fs.writeFileSync(file, text(LINES));
    const r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: anchors[3]!, content: 'changed();' }],
    });
    expect(r.ok).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(text(LINES));
  });
});
