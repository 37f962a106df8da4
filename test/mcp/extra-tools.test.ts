import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpToolset } from '../../src/mcp/mcp-toolset.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';

function tools(dir: string, limits = {}) {
  const sandbox = new Sandbox({
    mounts: [
      { hostPath: path.join(dir, 'src'), mountPoint: '/src', mode: 'rw', suffixes: ['.ts'] },
      { hostPath: path.join(dir, 'docs'), mountPoint: '/docs', mode: 'ro' },
    ],
  });
  return new McpToolset(new FileSystemToolset(sandbox, { limits }));
}
const err = (o: { ok: boolean; error?: { code: string } }) => (o.ok ? 'ok' : o.error!.code);

describe('read_many_files', () => {
  it('bounds the total size: later files are cut at a line boundary and marked truncated', async () => {
    const dir = tempDir({
      'src/a.ts': 'aaaa\n'.repeat(10),
      'src/b.ts': 'bbbb\n'.repeat(10),
      'docs/x.md': 'x\n',
    });
    const out = await tools(dir, { readMaxChars: 70 }).callTool('read_many_files', {
      paths: ['/src/a.ts', '/src/b.ts', '/docs/x.md'],
    });
    const data = (
      out as { data: { files: Record<string, unknown>[]; total_chars: number; truncated: boolean } }
    ).data;
    expect(data.files[0]).toMatchObject({ truncated: false, returned_lines: 10, total_lines: 10 });
    expect(data.files[1]).toMatchObject({ content: 'bbbb\n'.repeat(4), truncated: true, returned_lines: 4 });
    expect(data.files[2]).toMatchObject({ content: '', truncated: true, total_lines: 1 });
    expect(data.total_chars).toBeLessThanOrEqual(70);
    expect(data.truncated).toBe(true);
  });

  it('versions each file like read_file, and shows CRLF files with LF', async () => {
    const dir = tempDir({ 'src/a.ts': 'x\r\ny\r\n', 'docs/x.md': 'x\n' });
    const t = tools(dir);
    const out = await t.callTool('read_many_files', { paths: ['/src/a.ts'] });
    const file = (out as { data: { files: Record<string, unknown>[] } }).data.files[0]!;
    expect(file).toMatchObject({ content: 'x\ny\n', line_endings: 'crlf' });
    const again = await t.callTool('read_file', { path: '/src/a.ts' });
    expect((again as { data: { version: number } }).data.version).toBeGreaterThan(file.version as number);
  });

  it('asks only for files on readApproval mounts; a remembered approval can cover only what was shown', async () => {
    const dir = tempDir({ 'pub/a.md': 'a\n', 'priv/k.md': 'k\n', 'priv/l.md': 'l\n' });
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: path.join(dir, 'pub'), mountPoint: '/pub' },
        { hostPath: path.join(dir, 'priv'), mountPoint: '/priv', readApproval: true },
      ],
    });
    const t = new McpToolset(new FileSystemToolset(sandbox));
    expect(await t.needsApproval('read_many_files', { paths: ['/pub/a.md'] })).toEqual({
      status: 'pre_approved',
    });
    expect(await t.needsApproval('read_many_files', { paths: ['/pub/a.md', '/priv/k.md'] })).toMatchObject({
      payload: { type: 'generic', path: '/priv/k.md', mount: '/priv', args: { paths: ['/priv/k.md'] } },
    });
    expect(await t.needsApproval('read_many_files', { paths: ['/priv/k.md', '/priv/l.md'] })).toMatchObject({
      payload: { path: '', mount: '/priv', description: 'Read 2 files: /priv/k.md, /priv/l.md' },
    });
  });

  it('refuses an empty or too long list', async () => {
    const t = tools(tempDir({ 'src/a.ts': '', 'docs/x.md': '' }));
    expect(err(await t.callTool('read_many_files', { paths: [] }))).toBe('invalid_argument');
    expect(err(await t.callTool('read_many_files', { paths: Array(51).fill('/src/a.ts') }))).toBe(
      'invalid_argument',
    );
  });
});

describe('create_directory', () => {
  it('creates nested directories, is idempotent, ignores file suffix rules', async () => {
    const dir = tempDir({ 'src/a.ts': '', 'docs/x.md': '' });
    const t = tools(dir);
    expect(await t.callTool('create_directory', { path: '/src/p/q' })).toEqual({
      ok: true,
      data: { path: '/src/p/q', created: true },
    });
    expect(fs.statSync(path.join(dir, 'src/p/q')).isDirectory()).toBe(true);
    expect(await t.callTool('create_directory', { path: '/src/p' })).toEqual({
      ok: true,
      data: { path: '/src/p', created: false },
    });
  });

  it('refuses read-only mounts, paths outside, a file in the way, and symlinks leading outside', async () => {
    const dir = tempDir({ 'src/a.ts': '', 'docs/x.md': '', 'outside/keep': '' });
    fs.symlinkSync(path.join(dir, 'outside'), path.join(dir, 'src/out'));
    const t = tools(dir);
    expect(err(await t.callTool('create_directory', { path: '/docs/new' }))).toBe('path_not_writable');
    expect(err(await t.callTool('create_directory', { path: '/elsewhere' }))).toBe('path_not_in_sandbox');
    expect(err(await t.callTool('create_directory', { path: '/src/../outside/x' }))).toBe(
      'path_not_in_sandbox',
    );
    expect(err(await t.callTool('create_directory', { path: '/src/a.ts/sub' }))).toBe('not_a_file');
    expect(err(await t.callTool('create_directory', { path: '/src/out/evil' }))).toBe('path_not_in_sandbox');
    expect(fs.readdirSync(path.join(dir, 'outside'))).toEqual(['keep']);
  });

  it('asks approval with a generic payload only when something will be created', async () => {
    const dir = tempDir({ 'src/a.ts': '', 'docs/x.md': '' });
    const t = tools(dir);
    const ask = await t.needsApproval('create_directory', { path: '/src/n' });
    expect(ask).toMatchObject({
      status: 'needs_approval',
      payload: { type: 'generic', path: '/src/n', mount: '/src' },
    });
    fs.mkdirSync(path.join(dir, 'src/n'));
    expect(await t.needsApproval('create_directory', { path: '/src/n' })).toEqual({ status: 'pre_approved' });
    expect((await t.needsApproval('create_directory', { path: '/docs/n' })).status).toBe('blocked');
  });
});

describe('McpToolset', () => {
  it('exposes a chosen subset and refuses names outside it', async () => {
    const dir = tempDir({ 'src/a.ts': '', 'docs/x.md': '' });
    const t = new McpToolset(new FileSystemToolset(Sandbox.fromDirectory(dir)), [
      'read_file',
      'read_many_files',
    ]);
    expect(t.listTools().map((x) => x.name)).toEqual(['read_file', 'read_many_files']);
    expect(err(await t.callTool('write_file', { path: '/x', content: '' }))).toBe('invalid_argument');
    expect((await t.needsApproval('write_file', { path: '/x', content: '' })).status).toBe('blocked');
    expect(() => new McpToolset(new FileSystemToolset(Sandbox.fromDirectory(dir)), ['nope'])).toThrow(/nope/);
  });

  it('binds approvals as the inner toolset does: same sandbox identity, one lock key per real file', () => {
    const dir = tempDir({ 'src/a.ts': 'a\n' });
    const inner = new FileSystemToolset(Sandbox.fromDirectory(path.join(dir, 'src'), { mode: 'rw' }));
    const t = new McpToolset(inner);
    expect(t.sandbox.identity).toBe(inner.sandbox.identity);
    const key = (p: string) => t.lockKeys('edit_file', { path: p, old_string: 'a', new_string: 'b' });
    expect(key('/./a.ts')).toEqual(key('/a.ts'));
    expect(key('/a.ts')).toEqual(inner.lockKeys('edit_file', { path: '/a.ts' }));
  });
});
