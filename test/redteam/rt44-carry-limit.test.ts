// rt44: the toolset carries a read's lines exactly through its own edit_lines calls — for up to 256 calls
// (MAX_EDITS_CARRIED in src/tools/edit-lines.ts). Past that, the read's lines are followed through a line
// diff of the read and the file instead, as for an outside change. A line the model DELETED with edit_lines
// and later wrote again (same text, a new line, shown by that result under another line number) is then
// "followed" to the new line: the diff cannot tell a deletion + re-insertion from a line kept. Within the limit the same call is refused
// (anchor_stale: "replaced by one of your edit_lines calls since"); past it, the anchor of the deleted line
// edits the new one.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const V0 = ['// header', 'let counter = 0;', 'config.load();', 'a();', 'b();', 'c();', '// footer'];
const text = (l: string[]) => `${l.join('\n')}\n`;

async function scenario(calls: number) {
  const { ts, file, vpath } = setup(text(V0));
  const a0 = await readAnchors(ts, vpath); // 3#H for config.load();
  const H = a0[2]!;
  // The model deletes config.load(); …
  let r: any = await ts.callTool('edit_lines', { path: vpath, operations: [{ op: 'delete_line', hash: H }] });
  expect(r.ok, JSON.stringify(r.error)).toBe(true);
  // … then writes it again where it was (a new line, same text), with a note added at the top …
  r = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [
      { op: 'insert_before', hash: a0[0]!, content: '// note' },
      { op: 'insert_after', hash: a0[1]!, content: 'config.load();' },
    ],
  });
  expect(r.ok, JSON.stringify(r.error)).toBe(true);
  // … and bumps the counter line many times, each by the anchor the last result gave.
  let counter = a0[1]!;
  for (let k = 1; k <= calls; k++) {
    r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: counter, content: `let counter = ${k};` }],
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    counter = (r.data.diff as string).match(/^\+(\d+#[0-9a-f]{6})\|let counter/m)![1]!;
  }
  const before = fs.readFileSync(file, 'utf8');
  // Now the read's anchor of the deleted line.
  r = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'replace_line', hash: H, content: 'config.reload();' }],
  });
  return { r, before, after: fs.readFileSync(file, 'utf8') };
}

describe('rt44: the anchor of a line the model deleted, after many edit_lines calls', () => {
  for (const calls of [10, 300])
    it(`${calls} calls later: refused (the line read was deleted), never the line written again`, async () => {
      const { r, before, after } = await scenario(calls);
      expect(r.ok, r.ok ? `edited: ${r.data.diff}` : '').toBe(false);
      expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    }, 120_000);
});
