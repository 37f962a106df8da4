import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliUsageError, parseArgs, parseMount } from '../../src/mcp/cli/parse-args.js';
import { tempDir } from '../helpers/temp-project.js';
import { BIN, call, REPO, type StdioSession, startServer } from './stdio-client.js';

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', BIN, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('sandbox-approval command line', () => {
  it('parses --mount HOST:VIRTUAL[:ro|rw], defaulting to ro; the host part may contain ":"', () => {
    expect(parseMount('./src:/src:rw')).toEqual({ hostPath: './src', mountPoint: '/src', mode: 'rw' });
    expect(parseMount('./docs:/docs')).toEqual({ hostPath: './docs', mountPoint: '/docs', mode: 'ro' });
    expect(parseMount('C:\\work:/w:rw')).toEqual({ hostPath: 'C:\\work', mountPoint: '/w', mode: 'rw' });
    expect(() => parseMount('./src')).toThrow(CliUsageError);
    expect(() => parseMount('./src:src')).toThrow(/VIRTUAL starts with "\/"/);
  });

  it('parses every option and refuses unknown ones', () => {
    expect(
      parseArgs([
        'mcp',
        '--mount',
        'a:/a',
        '--config=c.json',
        '--approve',
        'tty',
        '--policy',
        'p.json',
        '--tools',
        'read_file, list_files',
        '--no-elicitation',
      ]),
    ).toEqual({
      command: 'mcp',
      mounts: [{ hostPath: 'a', mountPoint: '/a', mode: 'ro' }],
      config: 'c.json',
      approve: 'tty',
      policy: 'p.json',
      tools: ['read_file', 'list_files'],
      elicitation: false,
    });
    expect(() => parseArgs(['mcp', '--approve', 'yes'])).toThrow(/deny, tty, policy/);
    expect(() => parseArgs(['mcp', '--frobnicate'])).toThrow(/Unknown option/);
    expect(() => parseArgs(['serve'])).toThrow(/Unknown command/);
    expect(() => parseArgs(['mcp', '--mount'])).toThrow(/needs a value/);
  });

  it('--help lists every option on stdout and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    for (const flag of [
      '--mount',
      '--config',
      '--approve',
      '--policy',
      '--tools',
      '--no-elicitation',
      '--help',
      '--version',
    ])
      expect(r.stdout).toContain(flag);
  });

  it('--version prints the package version', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    const r = run('--version');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('a bad mount exits 2 naming the problem on stderr, nothing on stdout', () => {
    const dir = tempDir();
    const r = run('mcp', '--mount', `${path.join(dir, 'missing')}:/src:rw`);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/mounts\[0\] \(\/src\): hostPath .* does not exist/);
    expect(r.stdout).toBe('');
    expect(run('mcp').stderr).toMatch(/No mounts/);
  });

  it('a bad config file exits 2 naming the problem', () => {
    const dir = tempDir({
      'bad.json': '{ "mounts": [ { "hostPath": ".", "mountPoint": "src" } ] }',
      'broken.json': '{',
    });
    const bad = run('mcp', '--config', path.join(dir, 'bad.json'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/mount point "src" must start with "\/"/);
    const broken = run('mcp', '--config', path.join(dir, 'broken.json'));
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/not valid JSON/);
    const policy = run('mcp', '--mount', `${dir}:/d`, '--approve', 'policy');
    expect(policy.status).toBe(2);
    expect(policy.stderr).toMatch(/needs a policy/);
  });

  describe('--config', () => {
    let session: StdioSession | undefined;
    afterEach(async () => {
      await session?.close();
    });

    it('serves the mounts of a config file, host paths relative to the file', async () => {
      const dir = tempDir({ 'project/src/a.ts': 'a\n' });
      const config = path.join(dir, 'project/sandbox.json');
      fs.writeFileSync(
        config,
        JSON.stringify({
          mounts: [{ hostPath: './src', mountPoint: '/code', mode: 'rw' }],
          approve: 'policy',
          policy: { rules: [{ tools: ['write_file'], paths: ['/code/**'], decision: 'approve' }] },
          tools: ['read_file', 'write_file'],
        }),
      );
      session = await startServer(['--config', config]);
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['read_file', 'write_file']);
      expect((await call(session, 'write_file', { path: '/code/b.ts', content: 'b\n' })).isError).toBeFalsy();
      expect(fs.readFileSync(path.join(dir, 'project/src/b.ts'), 'utf8')).toBe('b\n');
    });
  });
});
