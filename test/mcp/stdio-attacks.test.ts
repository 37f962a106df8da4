import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { approveAll, call, codeOf, type StdioSession, startServer } from './stdio-client.js';

/**
 * The sandbox's attack inputs, sent by a model through MCP to the real server
 * process. The client approves everything it is asked, so only the sandbox
 * stands between the input and the host: nothing outside may be read or
 * changed, no result may name a host path, no call may hang.
 */
describe('sandbox attack inputs through MCP (stdio)', () => {
  let dir: string;
  let outside: string;
  let s: StdioSession;

  beforeAll(async () => {
    dir = tempDir({ 'src/a.ts': 'a\n', 'outside/secret.txt': 'top secret\n' }, { keep: true });
    outside = path.join(dir, 'outside');
    fs.symlinkSync(outside, path.join(dir, 'src/link'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'src/s.txt'));
    fs.symlinkSync(path.join(outside, 'planted.txt'), path.join(dir, 'src/dangling.txt'));
    execFileSync('mkfifo', [path.join(dir, 'src/fifo')]);
    s = await startServer(['--mount', `${dir}/src:/src:rw`], approveAll);
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const attacks: [string, Record<string, unknown>][] = [
    ['read_file', { path: '/src/../outside/secret.txt' }],
    ['read_file', { path: '/../../etc/passwd' }],
    ['read_file', { path: '/src/link/secret.txt' }],
    ['read_file', { path: '/src/s.txt' }],
    ['read_file', { path: '/src/a.ts\0/../../outside/secret.txt' }],
    ['read_file', { path: '/src\\..\\outside\\secret.txt' }],
    ['read_file', { path: '/src/\u2024\u2024/outside/secret.txt' }],
    ['read_file', { path: '/srcx/a.ts' }],
    ['read_many_files', { paths: ['/src/link/secret.txt', '/src/s.txt', '/src/../outside/secret.txt'] }],
    ['list_files', { path: '/src/link' }],
    ['list_files', { path: '/src', pattern: '../outside/**' }],
    ['write_file', { path: '/src/link/planted.txt', content: 'x' }],
    ['write_file', { path: '/src/dangling.txt', content: 'x' }],
    ['write_file', { path: '/src/../outside/planted.txt', content: 'x' }],
    ['edit_file', { path: '/src/s.txt', old_string: 'top', new_string: 'no' }],
    ['copy_file', { source: '/src/s.txt', destination: '/src/copy.txt' }],
    ['copy_file', { source: '/src/a.ts', destination: '/src/link/planted.txt' }],
    ['move_file', { source: '/src/a.ts', destination: '/src/../outside/planted.txt' }],
    ['delete_file', { path: '/src/link/secret.txt' }],
    ['create_directory', { path: '/src/link/newdir' }],
    ['create_directory', { path: '/src/../outside/newdir' }],
  ];

  it.each(attacks)('%s %j is refused, names no host path, changes nothing', async (name, args) => {
    const r = await call(s, name, args);
    const text = JSON.stringify(r);
    if (name === 'read_many_files') {
      const files = (r.structuredContent as { files: { error?: unknown }[] }).files;
      expect(files.every((f) => f.error !== undefined)).toBe(true);
    } else {
      expect(r.isError, text).toBe(true);
    }
    expect(text).not.toContain(dir);
    expect(text).not.toContain('top secret');
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe('a\n');
  });

  it('nothing was ever put to the person: every attack was refused before approval', () => {
    expect(s.asked).toEqual([]);
  });

  it('reading a FIFO returns not_a_file instead of hanging', async () => {
    const r = await call(s, 'read_file', { path: '/src/fifo' });
    expect(codeOf(r)).toBe('not_a_file');
  });
});
