// rt48: read_file cuts a line longer than readMaxChars (50,000 UTF-16 units) in the middle of a
// surrogate pair: with one ASCII character before 1.2M emoji, the page's content ends in a lone high
// surrogate (U+D83D). The model is handed ill-formed text (JSON shows "\ud83d", an MCP text block a
// U+FFFD); copied into an edit's old_string it is refused as a lone surrogate. The same line through
// read_many_files, edit_file's diff, edit_lines' diff and error messages is cut on a character boundary.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
function setup(content: string) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt48-sur-')));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), content);
  return new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
}
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function loneIn(v: unknown, at = ''): string[] {
  if (typeof v === 'string') return LONE.test(v) ? [at] : [];
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => loneIn(x, `${at}.${k}`));
  return [];
}

const LINE = `a${'😀'.repeat(600_000)}NEEDLE${'😀'.repeat(600_000)}`;
const FILE = `first\n${LINE}\nlast\n`;

describe('rt48: a long line cut for the model is cut on a character boundary', () => {
  for (const hashes of [false, true])
    it(`read_file${hashes ? ' (hashes)' : ''} of a cut emoji line returns well-formed text`, async () => {
      const ts = setup(FILE);
      const r: any = await ts.callTool('read_file', { path: '/f.txt', offset: 2, hashes });
      expect(r.ok).toBe(true);
      expect((r.data as { truncated: boolean }).truncated).toBe(true);
      expect(loneIn(r.data), 'fields with a lone surrogate').toEqual([]);
    });

  it('held: read_many_files, edit_file (dry run and real), edit_lines and an edit_not_unique error stay well-formed', async () => {
    const ts = setup(FILE);
    expect(loneIn(await ts.callTool('read_many_files', { paths: ['/f.txt'] }))).toEqual([]);
    expect(
      loneIn(
        await ts.callTool('edit_file', {
          path: '/f.txt',
          old_string: 'NEEDLE',
          new_string: 'PIN',
          dryRun: true,
        }),
      ),
    ).toEqual([]);
    const e: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'NEEDLE',
      new_string: 'PIN',
    });
    expect(e.ok).toBe(true);
    expect(loneIn(e)).toEqual([]);
    const page: any = await ts.callTool('read_file', { path: '/f.txt', hashes: true, offset: 2, limit: 1 });
    const anchor = (page.data as { content: string }).content.split('|')[0]!;
    const l: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'insert_after', hash: anchor, content: 'x' }],
    });
    expect(l.ok, JSON.stringify(l.ok ? '' : l.error)).toBe(true);
    expect(loneIn(l)).toEqual([]);
    const u: any = await ts.callTool('edit_file', { path: '/f.txt', old_string: '😀😀😀', new_string: 'P' });
    expect(u.ok ? '' : u.error.code).toBe('edit_not_unique');
    expect(loneIn(u)).toEqual([]);
  }, 60_000);
});
