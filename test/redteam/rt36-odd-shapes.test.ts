// rt36 (held): odd file shapes through the approval layer; bytes equal a plain reference; refusals change nothing;
// and for big LF edits the payload's unifiedDiff, applied to the old text, gives exactly the bytes written.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const sha = (b: string | Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function run(content: string | Buffer, tool: string, args: any) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt36-os-')));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), content);
  let payload: any;
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: true }));
  const g = new ApprovalToolset(ts, {
    approve: (r: any) => {
      payload = r.payload;
      return { approved: true };
    },
  });
  if (typeof args === 'function') args = await args(ts);
  const r: any = await g.callTool(tool, { path: '/f.txt', ...args });
  return { r, after: fs.readFileSync(path.join(dir, 'f.txt')), payload };
}

/** Applies a unified diff (LF text) to `before`. */
function applyDiff(before: string, diff: string): string {
  const old = before.split('\n');
  const finalNl = before.endsWith('\n');
  if (finalNl) old.pop();
  const out: string[] = [];
  let i = 0;
  let newNoNl = false;
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let last = '';
  for (const l of lines) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(l);
    if (m) {
      const start = Number(m[1]) - (m[2] === '0' ? 0 : 1);
      while (i < start) out.push(old[i++]!);
      continue;
    }
    if (l.startsWith('--- ') || l.startsWith('+++ ')) continue;
    if (l.startsWith('\\')) {
      if (last === '+' || last === ' ') newNoNl = true;
      continue;
    }
    last = l[0]!;
    if (l[0] === ' ') out.push(old[i++]!);
    else if (l[0] === '-') i++;
    else if (l[0] === '+') out.push(l.slice(1));
  }
  while (i < old.length) out.push(old[i++]!);
  return out.join('\n') + (finalNl && !newNoNl ? '\n' : '');
}

describe('rt36 (held): odd shapes', () => {
  const cases: Array<[string, string | Buffer, string, any, string | Buffer]> = [
    ['CR-only: exact edit', 'a\rb\rc\r', 'edit_file', { old_string: 'b', new_string: 'B' }, 'a\rB\rc\r'],
    [
      'CR-only: LF old_string is not found',
      'a\rb\rc\r',
      'edit_file',
      { old_string: 'a\nb', new_string: 'X' },
      'a\rb\rc\r',
    ],
    [
      'mixed EOL: fuzzy edit keeps each line end',
      'a\r\nb\nc\r\nd\n',
      'edit_file',
      { old_string: 'b  \nc', new_string: 'B\nC' },
      'a\r\nB\nC\r\nd\n',
    ],
    ['NUL: refused', 'a\0b\n', 'edit_file', { old_string: 'a', new_string: 'A' }, 'a\0b\n'],
    [
      'invalid UTF-8: write refused',
      Buffer.from([0x61, 0xff, 0x62, 0x0a]),
      'write_file',
      { content: 'x' },
      Buffer.from([0x61, 0xff, 0x62, 0x0a]),
    ],
    [
      'BOM: patch keeps it',
      '\ufeffa\nb\n',
      'patch_file',
      {
        unified_diff: '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n',
        base_sha256: sha('\ufeffa\nb\n'),
      },
      '\ufeffA\nb\n',
    ],
    [
      'lone surrogate in old_string: refused',
      'x😀y\n',
      'edit_file',
      { old_string: 'x\ud83d', new_string: 'Q' },
      'x😀y\n',
    ],
    [
      'surrogate pair split across lines: refused',
      'a\n',
      'write_file',
      { content: '\ud83d\n\ude00\n' },
      'a\n',
    ],
    [
      'no final newline: patch adding a last line',
      'a\nb',
      'patch_file',
      { unified_diff: '--- a/f.txt\n+++ b/f.txt\n@@ -2,1 +2,2 @@\n b\n+c\n', base_sha256: sha('a\nb') },
      'a\nb\nc',
    ],
    [
      'lone CR inside a CRLF file',
      'a\r\nb\rc\r\nd\r\n',
      'edit_file',
      { old_string: 'b\rc', new_string: 'B' },
      'a\r\nB\r\nd\r\n',
    ],
    [
      '100k empty lines: replace_all',
      '\n'.repeat(100_000),
      'edit_file',
      { old_string: '\n\n', new_string: '\n', replace_all: true },
      '\n'.repeat(50_000),
    ],
  ];
  it.each(cases)('%s', async (_n, before, tool, args, want) => {
    const { after } = await run(before, tool, args);
    expect(Buffer.compare(after, Buffer.from(want as any))).toBe(0);
  });

  it('100k empty lines: edit_lines on line 500', async () => {
    const nl = '\n'.repeat(100_000);
    const { r, after } = await run(nl, 'edit_lines', async (ts: any) => {
      const read: any = await ts.callTool('read_file', {
        path: '/f.txt',
        hashes: true,
        offset: 500,
        limit: 1,
      });
      return { operations: [{ op: 'replace_line', hash: read.data.content.split('|')[0], content: 'X' }] };
    });
    expect(r.ok).toBe(true);
    expect(after.toString()).toBe(`${'\n'.repeat(499)}X\n${'\n'.repeat(99_500)}`);
  });

  it('payload diff == bytes written: replace_all over 100k lines, 10k-hunk patch, write_file 100k lines', async () => {
    const N = 100_000;
    const before = `${Array.from({ length: N }, (_, i) => `row ${i} some`).join('\n')}\n`;
    const a = await run(before, 'edit_file', { old_string: 'some', new_string: 'SOME', replace_all: true });
    expect(a.after.toString()).toBe(before.replaceAll('some', 'SOME'));
    expect(applyDiff(before, a.payload.unifiedDiff)).toBe(a.after.toString());
    let d = '--- a/f.txt\n+++ b/f.txt\n';
    for (let i = 0; i < N; i += 10) d += `@@ -${i + 1},1 +${i + 1},1 @@\n-row ${i} some\n+row ${i} W\n`;
    const b = await run(before, 'patch_file', { unified_diff: d, base_sha256: sha(before) });
    expect(b.r.ok).toBe(true);
    expect(applyDiff(before, b.payload.unifiedDiff)).toBe(b.after.toString());
    const content = `${Array.from({ length: N }, (_, i) => (i % 3 ? `row ${i} some` : `R ${i}`)).join('\n')}`;
    const c = await run(before, 'write_file', { content });
    expect(c.after.toString()).toBe(content);
    expect(applyDiff(before, c.payload.unifiedDiff)).toBe(content);
  }, 60_000);
});
