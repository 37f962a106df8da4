import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { nodeScript } from '../helpers/node-script.js';
import { tempDir } from '../helpers/temp-project.js';

const run = promisify(execFile);
let MODE = 'socket';
const WORKER = path.resolve(import.meta.dirname, 'fixtures/lock-worker.ts');
const REPO = path.resolve(import.meta.dirname, '../..');

/** Lock file of a key, as process-lock.ts names it, under a private TMPDIR. */
function lockFile(tmp: string, key: string): string {
  const dir = path.join(tmp, `sandbox-approval-locks-${process.getuid!()}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return path.join(dir, `${createHash('sha256').update(key).digest('hex')}.lock`);
}

async function race(tmp: string, dir: string, key: string, workers: number, trials: number) {
  const outs = await Promise.all(
    Array.from({ length: workers }, (_, w) =>
      run(process.execPath, [nodeScript(WORKER), dir, key, String(w), String(workers), String(trials)], {
        cwd: REPO,
        env: { ...process.env, TMPDIR: tmp, SANDBOX_APPROVAL_LOCK: MODE },
      }),
    ),
  );
  return outs.map(
    (o) => JSON.parse(o.stdout.trim().split('\n').at(-1)!) as { overlaps: number; entered: number },
  );
}

// Both implementations: the kernel-held socket (Linux default) and the lock-file fallback (forced).
describe.each([
  'socket',
  'file',
])('cross-process lock (%s): tampered / dead lock files never let two holders in', (mode) => {
  beforeEach(() => {
    MODE = mode;
  });
  it('a pre-existing lock file with foreign (non-token) content, N processes racing: mutual exclusion holds', async () => {
    const TRIALS = Number(process.env.RT_TRIALS ?? 20);
    const WORKERS = 5;
    const root = tempDir();
    const tmp = path.join(root, 'tmp');
    const dir = path.join(root, 'work');
    fs.mkdirSync(tmp);
    fs.mkdirSync(dir);
    const key = `/project/a.txt-${randomBytes(4).toString('hex')}`;
    // Foreign content: a dead pid and no 32-hex token (e.g. written by hand, another tool or version).
    for (let t = 0; t < TRIALS; t++)
      fs.writeFileSync(lockFile(tmp, `${key}#${t}`), '999999999 0 not-a-token');
    const outs = await race(tmp, dir, key, WORKERS, TRIALS);
    expect(outs.reduce((n, o) => n + o.entered, 0)).toBe(TRIALS * WORKERS);
    const overlaps = outs.reduce((n, o) => n + o.overlaps, 0);
    console.log('RT-OVERLAPS', overlaps);
    expect(overlaps).toBe(0);
  }, 240_000);

  it('a lock left by a dead owner (valid format), N processes racing to break it: mutual exclusion holds', async () => {
    const TRIALS = Number(process.env.RT_TRIALS ?? 20);
    const WORKERS = 5;
    const root = tempDir();
    const tmp = path.join(root, 'tmp');
    const dir = path.join(root, 'work');
    fs.mkdirSync(tmp);
    fs.mkdirSync(dir);
    const key = `/project/b.txt-${randomBytes(4).toString('hex')}`;
    for (let t = 0; t < TRIALS; t++)
      fs.writeFileSync(lockFile(tmp, `${key}#${t}`), `999999999 12345 ${randomBytes(16).toString('hex')}`);
    const outs = await race(tmp, dir, key, WORKERS, TRIALS);
    expect(outs.reduce((n, o) => n + o.entered, 0)).toBe(TRIALS * WORKERS);
    const overlaps = outs.reduce((n, o) => n + o.overlaps, 0);
    console.log('RT-OVERLAPS', overlaps);
    expect(overlaps).toBe(0);
  }, 240_000);

  it('a holder SIGKILLed while holding: the waiters get the lock (never blocked forever), one at a time', async () => {
    const root = tempDir();
    const tmp = path.join(root, 'tmp');
    const dir = path.join(root, 'work');
    fs.mkdirSync(tmp);
    fs.mkdirSync(dir);
    const key = `/project/c.txt-${randomBytes(4).toString('hex')}`;
    const holder = spawn(process.execPath, [nodeScript(WORKER), dir, key, '99', '1', '0', 'hold'], {
      cwd: REPO,
      env: { ...process.env, TMPDIR: tmp, SANDBOX_APPROVAL_LOCK: MODE },
      stdio: 'ignore',
    });
    for (let i = 0; i < 400 && !fs.existsSync(path.join(dir, 'held')); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(fs.existsSync(path.join(dir, 'held'))).toBe(true);
    const waiting = race(tmp, dir, key, 4, 1);
    await new Promise((r) => setTimeout(r, 1500));
    holder.kill('SIGKILL');
    const outs = await waiting;
    expect(outs.reduce((n, o) => n + o.entered, 0)).toBe(4);
    const overlaps = outs.reduce((n, o) => n + o.overlaps, 0);
    console.log('RT-OVERLAPS', overlaps);
    expect(overlaps).toBe(0);
  }, 120_000);
});
