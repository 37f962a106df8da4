import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot, tempDir } from '../helpers/temp-project.js';
import { approveAll, call, codeOf, type StdioSession, startServer } from '../mcp/stdio-client.js';

describe('red team: MCP arguments and dry runs', () => {
  let dir: string;
  let s: StdioSession;
  beforeAll(async () => {
    dir = tempDir(
      {
        'src/a.ts': 'one\ntwo\nthree\ntwo\n',
        'src/lines.ts': 'one\ntwo\nthree\ntwo\n',
        'src/d/x.ts': 'x\n',
        'src/d/y.ts': 'y\n',
        'src/crlf.txt': 'l1\r\nl2\r\nl3',
      },
      { keep: true },
    );
    s = await startServer(['--mount', `${dir}/src:/src:rw`], approveAll);
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const variants: [string, Record<string, unknown>][] = [
    ['dry_run', { dry_run: true }],
    ['dryRun "true"', { dryRun: 'true' }],
    ['dryRun 1', { dryRun: 1 }],
    ['DryRun', { DryRun: true }],
    ['dryrun', { dryrun: true }],
    ['dryRun null', { dryRun: null }],
    ['dryRun [true]', { dryRun: [true] }],
    ['dryRun {}', { dryRun: {} }],
    ['__proto__ carrying dryRun', JSON.parse('{"__proto__":{"dryRun":true}}')],
    ['constructor', { constructor: { dryRun: true } }],
    ['dryRun\\u200b (zero width)', { 'dryRun\u200b': true }],
    ['dryRun with Cyrillic у', { dryRun: undefined, drуRun: true }],
  ];
  it.each(
    variants,
  )('write_file with %s is refused as invalid_argument, nothing written, nobody asked', async (_n, extra) => {
    const before = snapshot(dir);
    const asked = s.asked.length;
    const r = await call(s, 'write_file', { path: '/src/a.ts', content: 'PWNED\n', ...extra });
    expect(codeOf(r), JSON.stringify(r)).toBe('invalid_argument');
    expect(snapshot(dir)).toEqual(before);
    expect(s.asked.length).toBe(asked);
  });

  it('unknown key nested inside an edit_lines operation (misspelt occurrence) is refused', async () => {
    const read = await call(s, 'read_file', { path: '/src/lines.ts', hashes: true });
    const text = (read.structuredContent as { content: string }).content;
    const twoLines = text.split('\n').filter((l) => l.endsWith('|two'));
    const hash = twoLines[0]!.split('|')[0]!.split('#')[1]!;
    const before = snapshot(dir);
    const r = await call(s, 'edit_lines', {
      path: '/src/lines.ts',
      operations: [{ op: 'delete_line', hash, occurence: 2 }],
    });
    expect(codeOf(r), JSON.stringify(r)).toBe('invalid_argument');
    expect(snapshot(dir)).toEqual(before);
  });

  it('__proto__ nested inside an edit_lines op is refused, nothing written', async () => {
    const before = snapshot(dir);
    const op = JSON.parse('{"op":"delete_line","hash":"zz","__proto__":{"x":1}}');
    const r = await call(s, 'edit_lines', { path: '/src/a.ts', operations: [op] });
    expect(r.isError).toBe(true);
    expect(snapshot(dir)).toEqual(before);
  });

  it('unknown argument on read tools is refused too (read_file dryRun, list_files depth)', async () => {
    for (const [n, a] of [
      ['read_file', { path: '/src/a.ts', dryRun: true }],
      ['list_files', { path: '/src', depth: 1 }],
      ['get_file_info', { path: '/src/a.ts', follow: true }],
      ['read_media_file', { path: '/src/a.png', maxBytes: 1 }],
      ['read_many_files', { paths: ['/src/a.ts'], head: 1 }],
    ] as const) {
      const r = await call(s, n, a as Record<string, unknown>);
      expect(codeOf(r), `${n} ${JSON.stringify(r)}`).toBe('invalid_argument');
      expect(JSON.stringify(r.structuredContent)).toMatch(/unknown/);
    }
  });

  const dryRuns: [string, Record<string, unknown>][] = [
    ['write_file', { path: '/src/a.ts', content: 'new\n' }],
    ['write_file', { path: '/src/new/deep/n.ts', content: 'new\n' }],
    ['edit_file', { path: '/src/a.ts', old_string: 'one', new_string: 'ONE' }],
    [
      'patch_file',
      { path: '/src/a.ts', unified_diff: '@@ -1,1 +1,1 @@\n-one\n+ONE\n', base_sha256: 'x'.repeat(64) },
    ],
    ['delete_file', { path: '/src/a.ts' }],
    ['move_file', { source: '/src/a.ts', destination: '/src/b.ts' }],
    ['move_file', { source: '/src/d', destination: '/src/e' }],
    ['move_file', { source: '/src/d', destination: '/src/new/e' }],
    ['copy_file', { source: '/src/a.ts', destination: '/src/c.ts' }],
    ['create_directory', { path: '/src/nd/nd2' }],
  ];
  it.each(dryRuns)('dryRun: true on %s %j writes nothing and asks nobody', async (name, args) => {
    const before = snapshot(dir);
    const dirsBefore = fs.readdirSync(path.join(dir, 'src')).sort();
    const asked = s.asked.length;
    const r = await call(s, name, { ...args, dryRun: true });
    expect(snapshot(dir)).toEqual(before);
    expect(fs.readdirSync(path.join(dir, 'src')).sort()).toEqual(dirsBefore);
    expect(s.asked.length).toBe(asked);
    if (!r.isError) expect((r.structuredContent as { dry_run: boolean }).dry_run).toBe(true);
  });

  it('dryRun: false is a real call (sanity)', async () => {
    const r = await call(s, 'copy_file', { source: '/src/a.ts', destination: '/src/c2.ts', dryRun: false });
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    expect(fs.existsSync(path.join(dir, 'src/c2.ts'))).toBe(true);
  });

  const headTail: [Record<string, unknown>, string | RegExp][] = [
    [{ head: 0 }, 'invalid_argument'],
    [{ head: -1 }, 'invalid_argument'],
    [{ tail: 0 }, 'invalid_argument'],
    [{ tail: -5 }, 'invalid_argument'],
    [{ head: 1.5 }, 'invalid_argument'],
    [{ head: 1, tail: 1 }, 'invalid_argument'],
    [{ head: 1, offset: 2 }, 'invalid_argument'],
    [{ tail: 1, limit: 2 }, 'invalid_argument'],
    [{ head: '2' }, 'invalid_argument'],
  ];
  it.each(headTail)('read_file %j is refused (%s)', async (args, code) => {
    const r = await call(s, 'read_file', { path: '/src/crlf.txt', ...args });
    expect(codeOf(r), JSON.stringify(r)).toBe(code);
  });

  it('tail on a CRLF file without final newline', async () => {
    const r = await call(s, 'read_file', { path: '/src/crlf.txt', tail: 1 });
    const sc = r.structuredContent as Record<string, unknown>;
    expect(sc.content).toBe('l3');
    expect(sc.start_line).toBe(3);
    expect(sc.end_line).toBe(3);
    expect(sc.line_endings).toBe('crlf');
    const h = await call(s, 'read_file', { path: '/src/crlf.txt', head: 2 });
    expect((h.structuredContent as { content: string }).content).toBe('l1\nl2');
  });

  it('huge head / tail return the whole file', async () => {
    for (const a of [{ head: 1e9 }, { tail: 1e9 }, { head: Number.MAX_SAFE_INTEGER }, { tail: 2 ** 40 }]) {
      const r = await call(s, 'read_file', { path: '/src/crlf.txt', ...a });
      const sc = r.structuredContent as Record<string, unknown>;
      expect(sc.content, JSON.stringify(a)).toBe('l1\nl2\nl3');
      expect(sc.start_line).toBe(1);
      expect(sc.truncated).toBe(false);
    }
  });

  it('tail on a file ending with newline / empty file / only newlines', async () => {
    fs.writeFileSync(path.join(dir, 'src/nl.txt'), 'a\nb\n');
    fs.writeFileSync(path.join(dir, 'src/empty.txt'), '');
    fs.writeFileSync(path.join(dir, 'src/blank.txt'), '\n\n\n');
    const r = await call(s, 'read_file', { path: '/src/nl.txt', tail: 1 });
    expect((r.structuredContent as { content: string }).content).toBe('b');
    const e = await call(s, 'read_file', { path: '/src/empty.txt', tail: 3 });
    expect(e.isError, JSON.stringify(e)).toBeFalsy();
    const b = await call(s, 'read_file', { path: '/src/blank.txt', tail: 2 });
    expect(b.isError, JSON.stringify(b)).toBeFalsy();
    expect((b.structuredContent as { content: string }).content).toBe('\n');
  });
});
