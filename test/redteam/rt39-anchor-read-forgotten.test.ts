// rt39: anchors from a hashed read must keep naming the line the model read, after other edits.
//
// Read a file of repeated blocks with hashes (its twins get position-salted anchors), insert lines at the
// top with edit_file (the file now differs from the read), edit one line with edit_lines by an anchor of
// that read (a replace: the line count does not change), then edit a second line by another anchor of the
// SAME read. The second anchor must reach the line the model read (now 4 lines lower) or be refused with
// disk unchanged. Today it silently edits the line that now sits at the read's line number: a different
// twin, 4 lines earlier (the first edit_lines call replaced the read with its own result, and kept the
// read only when that call itself changed the line count: src/tools/edit-lines.ts:166-168).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

const BLOCK = ['function f() {', '  return 1;', '}', ''];

async function scenario(insert: number, bRead: number) {
  const lines = ['// top of file'];
  for (let b = 0; b < 1000; b++) lines.push(...BLOCK);
  const dir = tempDir({ 'f.txt': `${lines.join('\n')}\n` });
  const file = path.join(dir, 'f.txt');
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const anchors: string[] = [];
  for (let off = 1; ; ) {
    const r = await ts.callTool('read_file', { path: '/f.txt', hashes: true, offset: off });
    if (!r.ok) throw new Error(r.error.message);
    const data = r.data as { content: string; next_offset: number | null };
    for (const l of data.content.split('\n')) anchors.push(l.split('|')[0]!);
    if (data.next_offset == null) break;
    off = data.next_offset;
  }
  const imports = Array.from({ length: insert }, (_, i) => `import m${i} from 'm${i}';`);
  const e = await ts.callTool('edit_file', {
    path: '/f.txt',
    old_string: '// top of file\n',
    new_string: `// top of file\n${imports.join('\n')}\n`,
  });
  expect(e.ok).toBe(true);
  const A = 5; // read line 6: "function f() {" of the second block
  const a = await ts.callTool('edit_lines', {
    path: '/f.txt',
    operations: [{ op: 'replace_line', hash: anchors[A]!, content: 'function a() {' }],
  });
  expect(a.ok).toBe(true);
  const beforeB = fs.readFileSync(file, 'utf8');
  const b = await ts.callTool('edit_lines', {
    path: '/f.txt',
    operations: [{ op: 'replace_line', hash: anchors[bRead]!, content: 'function b() {' }],
    sanity: 'off',
  });
  const after = fs.readFileSync(file, 'utf8');
  const intended = lines.slice();
  intended[A] = 'function a() {';
  intended[bRead] = 'function b() {';
  intended.splice(1, 0, ...imports);
  return { anchor: anchors[bRead], b, beforeB, after, intended: `${intended.join('\n')}\n` };
}

describe('rt39: a read’s anchors after edit_file + a same-length edit_lines', () => {
  for (const bRead of [2001, 2002, 3001]) {
    it(`anchor of read line ${bRead + 1} edits that line (now ${bRead + 5}) or is refused, never a twin`, async () => {
      const r = await scenario(4, bRead);
      if (r.b.ok) {
        const now = r.after.split('\n');
        expect(
          r.after === r.intended,
          `anchor ${r.anchor} (read line ${bRead + 1}) was applied at line ${now.indexOf('function b() {') + 1}; the line read is now line ${bRead + 5}`,
        ).toBe(true);
      } else {
        expect([
          'anchor_stale',
          'anchor_ambiguous',
          'anchor_context_ambiguous',
          'anchor_low_entropy',
        ]).toContain(r.b.error.code);
        expect(r.after).toBe(r.beforeB);
      }
    });
  }
});
