import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

/**
 * A U+FEFF that is content (start of line 3) becomes a "BOM" once the lines above are deleted: read_file then
 * hides it and a replace_line of that line keeps it, so the line asked to be 'MARK' is written '\uFEFFMARK'.
 */
describe('U+FEFF content promoted to a BOM by deleting the lines above', () => {
  // Known, left for a later round: a file that starts with U+FEFF has a byte-order mark by
  // definition, so deleting the lines above a line that starts with one makes it a BOM, which
  // reads then hide and edits keep. `it.fails` turns red when this is fixed.
  it.fails('replace_line writes exactly the content asked', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
    try {
      fs.writeFileSync(path.join(dir, 'f.txt'), 'a\nb\n\uFEFFz\nc\n');
      const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' })), {
        approve: () => ({ approved: true }),
      });
      const rd: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
      const an = rd.data.content.split('\n').map((l: string) => l.split('|')[0]);
      expect(rd.data.content.split('\n')[2]).toContain('\uFEFFz'); // shown as content at first
      const o: any = await g.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'delete_range', start_hash: an[0], end_hash: an[1] }],
      });
      expect(o.ok).toBe(true);
      const rd2: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
      const a2 = rd2.data.content.split('\n')[0].split('|')[0];
      const o2: any = await g.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: a2, content: 'MARK' }],
      });
      expect(o2.ok).toBe(true);
      expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('MARK\nc\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
