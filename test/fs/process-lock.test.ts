import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { withFileLock } from '../../src/fs/file-lock.js';
import { lockDirectory } from '../../src/fs/process-lock.js';
import { nodeScript } from '../helpers/node-script.js';
import { tempDir } from '../helpers/temp-project.js';

const run = promisify(execFile);
const CHILD = path.resolve(import.meta.dirname, 'fixtures/lock-child.ts');
const REPO = path.resolve(import.meta.dirname, '../..');

describe('cross-process file lock', () => {
  it('processes incrementing one counter under the lock lose no update', async () => {
    const counter = path.join(tempDir(), 'counter');
    fs.writeFileSync(counter, '0');
    const key = `counter:${counter}`;
    const PROCESSES = 4;
    const ROUNDS = 40;
    await Promise.all(
      Array.from({ length: PROCESSES }, () =>
        run(process.execPath, [nodeScript(CHILD), 'count', key, counter, String(ROUNDS)], {
          cwd: REPO,
        }),
      ),
    );
    expect(Number(fs.readFileSync(counter, 'utf8'))).toBe(PROCESSES * ROUNDS);
  }, 120_000);

  it('a lock held by a process that was killed is recovered by the next one', async () => {
    const ready = path.join(tempDir(), 'ready');
    const key = `killed:${ready}`;
    const child = spawn(process.execPath, [nodeScript(CHILD), 'hold', key, ready], { cwd: REPO });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    while (!fs.existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGKILL');
    await exited;
    expect(await withFileLock(key, async () => 'acquired')).toBe('acquired');
  }, 60_000);

  it('fallback: a lock file naming a process that does not exist (or garbage) is broken', async () => {
    process.env.SANDBOX_APPROVAL_LOCK = 'file';
    onTestFinished(() => {
      delete process.env.SANDBOX_APPROVAL_LOCK;
    });
    const key = `dead\0${tempDir()}`;
    // Find the lock file of the key by taking it once.
    const before = new Set(fs.readdirSync(lockDirectory()));
    let file = '';
    await withFileLock(key, async () => {
      file = fs.readdirSync(lockDirectory()).find((n) => n.endsWith('.lock') && !before.has(n)) ?? '';
    });
    expect(file).toMatch(/^[0-9a-f]{64}\.lock$/);
    const lock = path.join(lockDirectory(), file);
    for (const owner of [`2147483646 1 ${'a'.repeat(32)}`, 'not a lock file']) {
      fs.writeFileSync(lock, owner);
      expect(await withFileLock(key, async () => 'acquired')).toBe('acquired');
      expect(fs.existsSync(lock)).toBe(false);
    }
  });

  it('lock files live in a private directory outside any mounted one', () => {
    const stat = fs.statSync(lockDirectory());
    expect(stat.mode & 0o777).toBe(0o700);
    expect(lockDirectory().startsWith(path.resolve(REPO))).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'socket names come from a private per-user salt (0600, 32 bytes)',
    async () => {
      await withFileLock(`salt:${tempDir()}`, async () => undefined);
      const salt = fs.statSync(path.join(lockDirectory(), 'salt'));
      expect(salt.mode & 0o777).toBe(0o600);
      expect(salt.size).toBe(32);
    },
  );
});
