/**
 * End to end: a server process is SIGKILLed while holding locks (store entry + file), as a crash
 * mid-claim / mid-write would leave them. Later, several server processes execute approved calls
 * at once (the race-worker of test/web). Promised: exactly one applies; no update lost.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/approval/canonical-json.js';
import { nodeScript } from '../helpers/node-script.js';
import { tempDir } from '../helpers/temp-project.js';
import { askedHistory } from '../web/fixtures/ask-history.js';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const WORKER = path.resolve(REPO, 'test/web/fixtures/race-worker.ts');
const HOLD = path.resolve(import.meta.dirname, 'fixtures/hold-locks.ts');
const applied = (o: unknown) => (o as { type?: string })?.type === 'json';

function setup(trials: number, content: string) {
  const root = fs.realpathSync(tempDir());
  const project = path.join(root, 'project');
  const tmp = path.join(root, 'tmp');
  fs.mkdirSync(project);
  fs.mkdirSync(tmp);
  for (let t = 0; t < trials; t++) fs.writeFileSync(path.join(project, `f${t}.txt`), content);
  return {
    root,
    tmp,
    project,
    store: path.join(root, 'store'),
    file: (t: number) => path.join(project, `f${t}.txt`),
  };
}

/** Leaves genuinely dead-owner locks: a process takes them and is SIGKILLed. */
async function crashHolding(s: ReturnType<typeof setup>, keys: string[]) {
  const keysFile = path.join(s.root, 'keys.json');
  const ready = path.join(s.root, 'ready');
  fs.writeFileSync(keysFile, JSON.stringify(keys));
  const p = spawn(process.execPath, [nodeScript(HOLD), keysFile, ready], {
    cwd: REPO,
    env: { ...process.env, TMPDIR: s.tmp },
    stdio: 'ignore',
  });
  for (let i = 0; i < 600 && !fs.existsSync(ready); i++) await new Promise((r) => setTimeout(r, 25));
  expect(fs.existsSync(ready)).toBe(true);
  p.kill('SIGKILL');
  await new Promise((r) => p.once('exit', r));
}

const storeKey = (s: ReturnType<typeof setup>, callId: string) =>
  `deferred\0${path.join(
    s.store,
    `${createHash('sha256')
      .update(canonicalJson(['chat-1', callId]))
      .digest('hex')}.json`,
  )}`;

async function race(s: ReturnType<typeof setup>, trials: unknown[], workers: number) {
  const barrier = path.join(s.root, 'barrier');
  fs.mkdirSync(barrier);
  const planFile = path.join(s.root, 'plan.json');
  fs.writeFileSync(
    planFile,
    JSON.stringify({ project: s.project, store: s.store, trials, barrier, workers }),
  );
  const outs = await Promise.all(
    Array.from({ length: workers }, (_, w) =>
      run(process.execPath, [nodeScript(WORKER), planFile, String(w)], {
        cwd: REPO,
        env: { ...process.env, TMPDIR: s.tmp },
        maxBuffer: 1 << 24,
      }),
    ),
  );
  return outs.map(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1)!) as unknown[]);
}

describe('after a crash left locks behind, racing server processes', () => {
  it('N processes executing one approved append: exactly one applies (every trial)', async () => {
    const TRIALS = Number(process.env.RT_TRIALS ?? 20);
    const s = setup(TRIALS, 'n = 0\n');
    const trials = [];
    const keys: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const call = {
        toolName: 'edit_file',
        input: { path: `/f${t}.txt`, old_string: 'n = 0\n', new_string: 'n = 0\nadded\n' },
      };
      const history = await askedHistory({
        project: s.project,
        store: s.store,
        callId: `call-${t}`,
        call,
        approved: true,
      });
      trials.push({ calls: [{ history }] });
      keys.push(storeKey(s, `call-${t}`), s.file(t));
    }
    await crashHolding(s, keys);
    const outs = await race(s, trials, 4);
    const bad: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const n = outs.filter((o) => applied(o[t])).length;
      const content = fs.readFileSync(s.file(t), 'utf8');
      if (n !== 1 || content !== 'n = 0\nadded\n')
        bad.push(`trial ${t}: applied ${n}x, file ${JSON.stringify(content)}`);
    }
    expect(bad).toEqual([]);
  }, 300_000);

  it('two processes executing different approved edits of one file: no update lost (every trial)', async () => {
    const TRIALS = Number(process.env.RT_TRIALS ?? 20);
    const s = setup(TRIALS, 'a = 0\nb = 0\n');
    const trials = [];
    const keys: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const calls = [];
      for (const v of ['a', 'b']) {
        const call = {
          toolName: 'edit_file',
          input: { path: `/f${t}.txt`, old_string: `${v} = 0`, new_string: `${v} = 1` },
        };
        const callId = `call-${t}-${v}`;
        calls.push({
          history: await askedHistory({ project: s.project, store: s.store, callId, call, approved: true }),
        });
        keys.push(storeKey(s, callId));
      }
      trials.push({ calls });
      keys.push(s.file(t));
    }
    await crashHolding(s, keys);
    const outs = await race(s, trials, 2);
    const bad: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const n = outs.filter((o) => applied(o[t])).length;
      const content = fs.readFileSync(s.file(t), 'utf8');
      const changes = (content.match(/= 1/g) ?? []).length;
      // Each success must be on disk: n applied ⇒ n changes.
      if (n !== changes)
        bad.push(`trial ${t}: ${n} reported applied, ${changes} on disk: ${JSON.stringify(content)}`);
    }
    expect(bad).toEqual([]);
  }, 300_000);
});
