import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { read, tempDir } from '../helpers/temp-project.js';
import { err, ok, project } from './fixture.js';

describe('read_file', () => {
  it('returns content with version and sha256, bumping the version on every read', async () => {
    const { toolset } = project({ 'a.txt': 'one\ntwo\n' });
    const first = ok(await toolset.callTool('read_file', { path: '/a.txt' }));
    const second = ok(await toolset.callTool('read_file', { path: '/a.txt' }));
    expect(first).toMatchObject({ path: '/a.txt', content: 'one\ntwo', total_lines: 2, truncated: false });
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(second.version).toBeGreaterThan(first.version as number);
  });

  it('pages by lines with offset/limit and next_offset', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    const { toolset } = project({ 'a.txt': lines });
    const page = ok(await toolset.callTool('read_file', { path: '/a.txt', offset: 3, limit: 4 }));
    expect(page).toMatchObject({ content: 'line 3\nline 4\nline 5\nline 6', start_line: 3, end_line: 6 });
    expect(page).toMatchObject({ truncated: true, next_offset: 7, total_lines: 10 });
  });

  it('caps by characters as well as lines', async () => {
    const { dir } = project();
    fs.writeFileSync(path.join(dir, 'big.txt'), `${'x'.repeat(99)}\n`.repeat(100));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir), { limits: { readMaxChars: 1_000 } });
    const page = ok(await toolset.callTool('read_file', { path: '/big.txt' }));
    expect(page.end_line).toBe(10);
    expect(page.truncated).toBe(true);
  });

  it('renders LINE#HASH| anchors with hashes: true', async () => {
    const { toolset } = project({ 'a.ts': 'const a = 1;\nconst b = 2;\n' });
    const page = ok(await toolset.callTool('read_file', { path: '/a.ts', hashes: true }));
    expect(String(page.content).split('\n')).toEqual([
      expect.stringMatching(/^1#[0-9a-z]{6}\|const a = 1;$/),
      expect.stringMatching(/^2#[0-9a-z]{6}\|const b = 2;$/),
    ]);
  });

  it('refuses binary files, missing files (with suggestions) and directories', async () => {
    const { toolset } = project({
      'bin.dat': Buffer.from([0, 1, 2, 255]),
      'readme.md': '# hi',
      'dir/x.txt': 'x',
    });
    expect(err(await toolset.callTool('read_file', { path: '/bin.dat' })).code).toBe('binary_file');
    const missing = err(await toolset.callTool('read_file', { path: '/readme.mdx' }));
    expect(missing.code).toBe('not_found');
    expect(missing.suggestions).toContain('/readme.md');
    expect(err(await toolset.callTool('read_file', { path: '/dir' })).code).toBe('not_a_file');
  });

  it('names each bad argument with invalid_argument', async () => {
    const { toolset } = project();
    const e = err(await toolset.callTool('read_file', { path: 3, offset: 0 }));
    expect(e.code).toBe('invalid_argument');
    expect(e.message).toMatch(/path/);
    expect(e.message).toMatch(/offset/);
    expect(err(await toolset.callTool('nope', {})).code).toBe('invalid_argument');
  });
});

describe('write_file', () => {
  it('creates files and parents, then overwrites with base_sha256', async () => {
    const { dir, toolset } = project();
    const created = ok(
      await toolset.callTool('write_file', { path: '/deep/new/file.txt', content: 'hello\n' }),
    );
    expect(created).toMatchObject({ path: '/deep/new/file.txt', created: true, bytes: 6, lines: 1 });
    const second = ok(
      await toolset.callTool('write_file', {
        path: '/deep/new/file.txt',
        content: 'bye\n',
        base_sha256: created.sha256,
      }),
    );
    expect(second.created).toBe(false);
    expect(read(dir, 'deep/new/file.txt')).toBe('bye\n');
  });

  it('refuses a stale base_sha256 with state_mismatch and the latest state, changing nothing', async () => {
    const { dir, toolset } = project({ 'a.txt': 'v1' });
    const r = ok(await toolset.callTool('read_file', { path: '/a.txt' }));
    fs.writeFileSync(path.join(dir, 'a.txt'), 'v2 (someone else)');
    const e = err(
      await toolset.callTool('write_file', { path: '/a.txt', content: 'mine', base_sha256: r.sha256 }),
    );
    expect(e.code).toBe('state_mismatch');
    expect(e.details?.latest_file_state).toMatchObject({ path: '/a.txt', content: 'v2 (someone else)' });
    expect(read(dir, 'a.txt')).toBe('v2 (someone else)');
  });

  it('keeps the file mode when overwriting', async () => {
    const { dir, toolset } = project({ 'run.sh': '#!/bin/sh\n' });
    fs.chmodSync(path.join(dir, 'run.sh'), 0o751);
    ok(await toolset.callTool('write_file', { path: '/run.sh', content: '#!/bin/sh\necho hi\n' }));
    expect(fs.statSync(path.join(dir, 'run.sh')).mode & 0o777).toBe(0o751);
  });

  it('refuses read-only mounts, paths outside and disallowed suffixes with clear codes', async () => {
    const ro = tempDir({ 'a.md': 'x' });
    const rw = tempDir();
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: ro, mountPoint: '/docs', mode: 'ro' },
        { hostPath: rw, mountPoint: '/out', mode: 'rw', suffixes: ['.md'] },
      ],
    });
    const toolset = new FileSystemToolset(sandbox);
    const notWritable = err(await toolset.callTool('write_file', { path: '/docs/a.md', content: 'y' }));
    expect(notWritable.code).toBe('path_not_writable');
    expect(notWritable.message).toContain('/out');
    expect(err(await toolset.callTool('write_file', { path: '/etc/passwd', content: 'y' })).code).toBe(
      'path_not_in_sandbox',
    );
    const suffix = err(await toolset.callTool('write_file', { path: '/out/a.txt', content: 'y' }));
    expect(suffix.code).toBe('suffix_not_allowed');
    expect(suffix.message).toContain('.md');
    for (const e of [notWritable, suffix]) {
      expect(e.message).not.toContain(ro);
      expect(e.message).not.toContain(rw);
    }
  });

  it('writes through a hardlink replace the entry, leaving the outside inode untouched', async () => {
    const outside = tempDir({ 'secret.txt': 'ORIGINAL' });
    const { dir, toolset } = project();
    fs.linkSync(path.join(outside, 'secret.txt'), path.join(dir, 'linked.txt'));
    ok(await toolset.callTool('write_file', { path: '/linked.txt', content: 'NEW' }));
    expect(read(outside, 'secret.txt')).toBe('ORIGINAL');
    expect(read(dir, 'linked.txt')).toBe('NEW');
  });
});
