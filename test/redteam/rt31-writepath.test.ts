// rt31: the write path of edit_file / write_file / patch_file / edit_lines: links handled as docs/security.md
// says (a symlink is followed, stays a link, and its target is written; a hard link is replaced, not written
// through), the mode is kept, and a failing call changes nothing on disk (bytes, inode, mtime, no temp files).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { cleanupAll, mkdir } from './rt31-harness.js';

afterEach(cleanupAll);
const sha = (s: string | Buffer) => crypto.createHash('sha256').update(s).digest('hex');

function setup() {
  const top = mkdir('rt31-wp-');
  const root = path.join(top, 'root');
  const outside = path.join(top, 'outside');
  fs.mkdirSync(path.join(root, 'd'), { recursive: true });
  fs.mkdirSync(outside);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
  return { top, root, outside, ts };
}

const edits: Array<[string, (p: string, text: string) => Record<string, unknown>]> = [
  ['edit_file', (p) => ({ path: p, old_string: 'two', new_string: 'TWO' })],
  ['edit_file fuzzy', (p) => ({ path: p, old_string: 'one \ntwo', new_string: 'one\nTWO' })],
  ['write_file', (p) => ({ path: p, content: 'one\r\nTWO\r\nthree\r\n' })],
  [
    'patch_file',
    (p, text) => ({ path: p, base_sha256: sha(text), unified_diff: '@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n' }),
  ],
];
const toolOf = (label: string) => label.split(' ')[0]!;
const TEXT = 'one\r\ntwo\r\nthree\r\n';
const WANT = 'one\r\nTWO\r\nthree\r\n';

describe('rt31 write path: links, mode, failures', () => {
  for (const [label, args] of edits) {
    it(`${label} through a symlink: the link stays a link, its target is written, mode kept`, async () => {
      const { root, ts } = setup();
      fs.writeFileSync(path.join(root, 'd/real.txt'), TEXT, { mode: 0o600 });
      fs.chmodSync(path.join(root, 'd/real.txt'), 0o751);
      fs.symlinkSync('d/real.txt', path.join(root, 'link.txt'));
      fs.symlinkSync('d', path.join(root, 'dl'));
      for (const p of ['/link.txt', '/dl/real.txt']) {
        fs.writeFileSync(path.join(root, 'd/real.txt'), TEXT);
        const out: any = await ts.callTool(toolOf(label), args(p, TEXT));
        expect(out.ok, JSON.stringify(out.error)).toBe(true);
        expect(fs.lstatSync(path.join(root, 'link.txt')).isSymbolicLink()).toBe(true);
        expect(fs.readlinkSync(path.join(root, 'link.txt'))).toBe('d/real.txt');
        expect(fs.lstatSync(path.join(root, 'dl')).isSymbolicLink()).toBe(true);
        expect(fs.readFileSync(path.join(root, 'd/real.txt'), 'utf8')).toBe(WANT);
        expect(fs.statSync(path.join(root, 'd/real.txt')).mode & 0o7777).toBe(0o751);
        if (out.data.sha256)
          expect(out.data.sha256).toBe(sha(fs.readFileSync(path.join(root, 'd/real.txt'))));
        expect(fs.readdirSync(path.join(root, 'd'))).toEqual(['real.txt']);
      }
    });

    it(`${label} on a hard-linked file: the entry is replaced, the other link keeps the old bytes`, async () => {
      const { root, outside, ts } = setup();
      const other = path.join(outside, 'other.txt');
      fs.writeFileSync(other, TEXT);
      fs.linkSync(other, path.join(root, 'f.txt'));
      const out: any = await ts.callTool(toolOf(label), args('/f.txt', TEXT));
      expect(out.ok, JSON.stringify(out.error)).toBe(true);
      expect(fs.readFileSync(other, 'utf8')).toBe(TEXT);
      expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe(WANT);
      expect(fs.statSync(path.join(root, 'f.txt')).nlink).toBe(1);
    });

    it(`${label} through a symlink leading outside: refused, nothing changes`, async () => {
      const { root, outside, ts } = setup();
      fs.writeFileSync(path.join(outside, 'o.txt'), TEXT);
      fs.symlinkSync('../outside/o.txt', path.join(root, 'out.txt'));
      const out: any = await ts.callTool(toolOf(label), args('/out.txt', TEXT));
      expect(out.ok).toBe(false);
      expect(fs.readFileSync(path.join(outside, 'o.txt'), 'utf8')).toBe(TEXT);
      expect(fs.readlinkSync(path.join(root, 'out.txt'))).toBe('../outside/o.txt');
      expect(fs.readdirSync(outside)).toEqual(['o.txt']);
    });
  }

  it('dangling symlink inside the sandbox: write_file creates its target, the link stays a link', async () => {
    const { root, ts } = setup();
    fs.symlinkSync('d/new.txt', path.join(root, 'dang.txt'));
    const out: any = await ts.callTool('write_file', { path: '/dang.txt', content: 'hi\n' });
    expect(out.ok, JSON.stringify(out.error)).toBe(true);
    expect(fs.lstatSync(path.join(root, 'dang.txt')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(root, 'd/new.txt'), 'utf8')).toBe('hi\n');
  });

  for (const mode of [0o4755, 0o2750, 0o1777, 0o600, 0o444, 0o000]) {
    it(`mode ${mode.toString(8)} kept by edit_file, write_file, patch_file, edit_lines`, async () => {
      const { root, ts } = setup();
      const f = path.join(root, 'f.txt');
      fs.writeFileSync(f, TEXT);
      fs.chmodSync(f, mode);
      const got: Record<string, string> = {};
      for (const [label, args] of edits) {
        fs.chmodSync(f, 0o644);
        fs.writeFileSync(f, TEXT);
        fs.chmodSync(f, mode);
        const out: any = await ts.callTool(toolOf(label), args('/f.txt', TEXT));
        got[label] = `${out.ok ? 'ok' : out.error.code} ${(fs.statSync(f).mode & 0o7777).toString(8)}`;
      }
      fs.chmodSync(f, 0o644);
      fs.writeFileSync(f, TEXT);
      fs.chmodSync(f, mode);
      const r: any = await ts.callTool('read_file', { path: '/f.txt', hashes: true });
      const anchor = String(r.data?.content ?? '')
        .split('\n')[1]
        ?.split('|')[0];
      const out: any = await ts.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: anchor, content: 'TWO' }],
      });
      got.edit_lines = `${out.ok ? 'ok' : out.error.code} ${(fs.statSync(f).mode & 0o7777).toString(8)}`;
      const want = `ok ${mode.toString(8)}`;
      expect(got).toEqual(Object.fromEntries(Object.keys(got).map((k) => [k, want])));
    });
  }

  it('failing calls change nothing: same bytes, inode, mtime, mode, no temp file', async () => {
    const { root, ts } = setup();
    const f = path.join(root, 'f.txt');
    const text = '\uFEFF}\r\n  }\r\n}\r\nx = "q"\r\nend';
    fs.writeFileSync(f, text);
    fs.chmodSync(f, 0o640);
    const past = new Date(Date.now() - 3_600_000);
    fs.utimesSync(f, past, past);
    const before = fs.statSync(f);
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['edit_file', { path: '/f.txt', old_string: '}', new_string: ']' }, 'edit_not_unique'],
      ['edit_file', { path: '/f.txt', old_string: '} \n', new_string: ']\n' }, 'edit_not_unique'],
      ['edit_file', { path: '/f.txt', old_string: 'nothere', new_string: 'x' }, 'edit_not_found'],
      [
        'edit_file',
        { path: '/f.txt', old_string: 'end', new_string: 'END', base_sha256: 'ab'.repeat(32) },
        'state_mismatch',
      ],
      ['edit_file', { path: '/f.txt', old_string: 'end', new_string: 'end' }, 'invalid_argument'],
      ['edit_file', { path: '/f.txt', old_string: 'end', new_string: 'E\uD800' }, 'invalid_argument'],
      ['write_file', { path: '/f.txt', content: 'x', base_sha256: 'ab'.repeat(32) }, 'state_mismatch'],
      [
        'patch_file',
        { path: '/f.txt', base_sha256: sha(text), unified_diff: '@@ -1,1 +1,1 @@\n-}\n+]\n' },
        'invalid_diff',
      ],
      [
        'patch_file',
        { path: '/f.txt', base_sha256: sha(text), unified_diff: '@@ -1,2 +1,2 @@\n-nope\n+x\n' },
        'invalid_diff',
      ],
      [
        'patch_file',
        {
          path: '/f.txt',
          base_sha256: sha(text),
          unified_diff: '@@ -5,1 +5,1 @@\n-end\n+END\n@@ -9,1 +9,1 @@\n-zzz\n+y\n',
        },
        'invalid_diff',
      ],
      [
        'edit_lines',
        { path: '/f.txt', operations: [{ op: 'replace_line', hash: '1#abcdef', content: 'x' }] },
        'anchor_stale',
      ],
    ];
    for (const [tool, a, code] of calls) {
      const out: any = await ts.callTool(tool, a);
      expect(out.ok, `${tool} ${JSON.stringify(a)}`).toBe(false);
      if (code !== 'anchor_stale') expect(out.error.code, `${tool} ${JSON.stringify(a)}`).toBe(code);
      const now = fs.statSync(f);
      expect(fs.readFileSync(f, 'utf8')).toBe(text);
      expect([now.ino, now.mtimeMs, now.mode]).toEqual([before.ino, before.mtimeMs, before.mode]);
      expect(fs.readdirSync(root).sort()).toEqual(['d', 'f.txt']);
    }
  });
});
