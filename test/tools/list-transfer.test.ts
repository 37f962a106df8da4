import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { read, snapshot, tempDir } from '../helpers/temp-project.js';
import { err, ok, project } from './fixture.js';

describe('list_files', () => {
  it('lists sorted virtual paths, filtered by a glob', async () => {
    const { toolset } = project({ 'src/b.ts': '', 'src/a.ts': '', 'src/c.md': '', '.env': '' });
    const all = ok(await toolset.callTool('list_files', {}));
    expect(all.entries).toEqual(['/.env', '/src/', '/src/a.ts', '/src/b.ts', '/src/c.md']);
    const ts = ok(await toolset.callTool('list_files', { path: '/src', pattern: '*.ts' }));
    expect(ts.entries).toEqual(['/src/a.ts', '/src/b.ts']);
  });

  it('refuses escaping patterns', async () => {
    const { toolset } = project();
    for (const pattern of ['/etc/*', '~/x', '../*', 'a/../../b', 'C:/x', 'a\0b']) {
      expect(err(await toolset.callTool('list_files', { pattern })).code).toBe('invalid_argument');
    }
  });

  it('never follows symlinks out of the mount', async () => {
    const outside = tempDir({ 'secret.txt': 's', 'sub/deep.txt': 'd' });
    const { dir, toolset } = project({ 'in.txt': 'i' });
    fs.symlinkSync(outside, path.join(dir, 'out-dir'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'out-file'));
    const all = ok(await toolset.callTool('list_files', {}));
    expect(all.entries).toEqual(['/in.txt']);
  });

  it('lists across several mounts from "/" and caps with truncated', async () => {
    const a = tempDir({ 'x.txt': '' });
    const b = tempDir({ 'y.txt': '', 'z.txt': '' });
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: a, mountPoint: '/a' },
        { hostPath: b, mountPoint: '/b' },
      ],
    });
    const toolset = new FileSystemToolset(sandbox, { limits: { listMaxEntries: 3 } });
    const r = ok(await toolset.callTool('list_files', { path: '/' }));
    expect(r.entries).toHaveLength(3);
    expect(r.truncated).toBe(true);
  });
});

describe('delete_file, move_file, copy_file', () => {
  it('moves and copies without overwriting unless asked', async () => {
    const { dir, toolset } = project({ 'a.txt': 'A', 'b.txt': 'B' });
    expect(err(await toolset.callTool('move_file', { source: '/a.txt', destination: '/b.txt' })).code).toBe(
      'invalid_argument',
    );
    expect(read(dir, 'b.txt')).toBe('B');
    ok(await toolset.callTool('copy_file', { source: '/a.txt', destination: '/c/a-copy.txt' }));
    expect(read(dir, 'c/a-copy.txt')).toBe('A');
    ok(await toolset.callTool('move_file', { source: '/a.txt', destination: '/b.txt', overwrite: true }));
    expect(read(dir, 'b.txt')).toBe('A');
    expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(false);
  });

  it('copy needs a readable source and a writable destination; move needs both writable', async () => {
    const ro = tempDir({ 'r.txt': 'R' });
    const rw = tempDir();
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: ro, mountPoint: '/ro' },
        { hostPath: rw, mountPoint: '/rw', mode: 'rw' },
      ],
    });
    const toolset = new FileSystemToolset(sandbox);
    ok(await toolset.callTool('copy_file', { source: '/ro/r.txt', destination: '/rw/r.txt' }));
    expect(
      err(await toolset.callTool('move_file', { source: '/ro/r.txt', destination: '/rw/r2.txt' })).code,
    ).toBe('path_not_writable');
    expect(read(ro, 'r.txt')).toBe('R');
  });

  it('deletes files, never directories', async () => {
    const { dir, toolset } = project({ 'a.txt': 'A', 'd/x': 'x' });
    ok(await toolset.callTool('delete_file', { path: '/a.txt' }));
    expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(false);
    expect(err(await toolset.callTool('delete_file', { path: '/d' })).code).toBe('not_a_file');
    expect(err(await toolset.callTool('delete_file', { path: '/a.txt' })).code).toBe('not_found');
  });

  it('expected failures change nothing on disk', async () => {
    const { dir, toolset } = project({ 'a.txt': 'A', 'b.txt': 'B' });
    const before = snapshot(dir);
    await toolset.callTool('move_file', { source: '/a.txt', destination: '/b.txt' });
    await toolset.callTool('copy_file', { source: '/missing', destination: '/z' });
    await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'nope', new_string: 'x' });
    await toolset.callTool('write_file', { path: '/../escape.txt', content: 'x' });
    expect(snapshot(dir)).toEqual(before);
  });
});
