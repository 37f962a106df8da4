// Red team (rt30a): read_file(hashes: true) of a line longer than readMaxChars returns it cut, and its anchor
// is the hash of the part shown. When another line of the file is exactly that visible part, the anchor names
// that other line: edit_lines with the anchor of line 1 (as shown) edits line 3 instead.
// Promise: edit_lines with the anchors a read showed edits exactly the lines shown.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, approveAll, FileSystemToolset, Sandbox } from '../../src/index.js';

describe('anchor of a cut line', () => {
  for (const max of [1000, 1_500_000]) {
    it(`readMaxChars ${max}: editing the cut line 1 by its anchor never changes another line`, async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt30-cut-'));
      const prefix = 'x'.repeat(max);
      const line1 = `${prefix}${'TAIL'.repeat(100)}`;
      const original = [line1, 'middle', prefix, 'end'];
      fs.writeFileSync(path.join(root, 'a.txt'), `${original.join('\n')}\n`);
      const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }), {
        limits: { readMaxChars: max, readMaxLines: 100 },
      });
      const g = new ApprovalToolset(ts, { approve: approveAll() });
      const r: any = await g.callTool('read_file', { path: '/a.txt', hashes: true });
      expect(r.ok).toBe(true);
      const anchor = (r.data.content as string).split('|')[0]!;
      expect(anchor.startsWith('1#')).toBe(true);
      const e: any = await g.callTool('edit_lines', {
        path: '/a.txt',
        operations: [{ op: 'replace_line', hash: anchor, content: 'EDITED' }],
      });
      const after = fs.readFileSync(path.join(root, 'a.txt'), 'utf8').split('\n');
      fs.rmSync(root, { recursive: true, force: true });
      // Refusing is fine; editing line 1 is fine; touching any other line is not.
      expect(after[1]).toBe('middle');
      expect(after[2] === prefix, `line 3 was replaced (edit ok=${e.ok})`).toBe(true);
      expect(after[3]).toBe('end');
    }, 60_000);
  }
});
