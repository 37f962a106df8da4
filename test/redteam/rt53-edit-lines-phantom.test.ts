import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

// docs/tools.md, edit_lines: `content` "" is one empty line. On the last line of a file with no
// final newline that line would end the file with nothing after its newline, which is no line:
// the file keeps having no final newline, so it ends in the newline before (3 lines -> 2), as
// documented, and the result says so.
describe('rt53 edit_lines content "" on a last line without a newline', () => {
  it('replace_line of the unterminated last line with "" ends the file after the line before (documented, reported)', async () => {
    const dir = tempDir({ 'f.txt': 'a\nb\nc' });
    const t = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const r = await t.callTool('read_file', { path: '/f.txt', hashes: true });
    const last = String((r as any).data.content).split('\n')[2]!;
    const e = await t.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: last.slice(0, last.indexOf('|')), content: '' }],
    });
    expect(e.ok).toBe(true);
    expect((e as any).data.lines_after).toBe(2);
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('a\nb\n');
    const re = await t.callTool('read_file', { path: '/f.txt' });
    expect((re as any).data.total_lines).toBe(2);
  });
});
