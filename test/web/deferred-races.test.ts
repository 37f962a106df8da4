import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { nodeScript } from '../helpers/node-script.js';
import { tempDir } from '../helpers/temp-project.js';
import { askedHistory } from './fixtures/ask-history.js';

const run = promisify(execFile);
const WORKER = path.resolve(import.meta.dirname, 'fixtures/race-worker.ts');
const REPO = path.resolve(import.meta.dirname, '../..');

/** Starts `workers` server processes at once; each handles its request of every trial after a barrier. */
async function race(
  plan: { project: string; store: string; trials: Array<{ calls: Array<{ history: unknown }> }> },
  workers: number,
): Promise<unknown[][]> {
  const root = tempDir();
  const barrier = path.join(root, 'barrier');
  fs.mkdirSync(barrier);
  const planFile = path.join(root, 'plan.json');
  fs.writeFileSync(planFile, JSON.stringify({ ...plan, barrier, workers }));
  const outs = await Promise.all(
    Array.from({ length: workers }, (_, w) =>
      run(process.execPath, [nodeScript(WORKER), planFile, String(w)], {
        cwd: REPO,
        maxBuffer: 1 << 24,
      }),
    ),
  );
  return outs.map(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1)!) as unknown[]);
}

const text = (output: unknown) => JSON.stringify(output);
const applied = (output: unknown) => (output as { type?: string })?.type === 'json';

function setup(trials: number, content: (t: number) => string) {
  const root = tempDir();
  const project = path.join(root, 'project');
  fs.mkdirSync(project);
  for (let t = 0; t < trials; t++) fs.writeFileSync(path.join(project, `f${t}.txt`), content(t));
  return { project, store: path.join(root, 'store'), file: (t: number) => path.join(project, `f${t}.txt`) };
}

describe('races between server processes sharing one JSON-file store', () => {
  it('N processes executing one approved call: exactly one applies it, every trial', async () => {
    const TRIALS = Number(process.env.RACE_TRIALS ?? 20);
    const WORKERS = 4;
    const s = setup(TRIALS, () => 'n = 0\n');
    const trials = [];
    for (let t = 0; t < TRIALS; t++) {
      // An append: applied twice it would show twice.
      const call = {
        toolName: 'edit_file',
        input: { path: `/f${t}.txt`, old_string: 'n = 0\n', new_string: 'n = 0\nadded\n' },
      };
      const history = await askedHistory({ ...s, callId: `call-${t}`, call, approved: true });
      trials.push({ calls: [{ history }] });
    }
    const outs = await race({ ...s, trials }, WORKERS);
    for (let t = 0; t < TRIALS; t++) {
      const results = outs.map((o) => o[t]);
      expect(results.filter(applied), `trial ${t}: ${text(results)}`).toHaveLength(1);
      for (const r of results.filter((r) => !applied(r)))
        expect(text(r)).toMatch(/approval_blocked|state_mismatch|stale_approval/);
      expect(fs.readFileSync(s.file(t), 'utf8')).toBe('n = 0\nadded\n');
    }
  }, 240_000);

  it('lost update: two processes executing different approved edits of one file never lose one', async () => {
    const TRIALS = Number(process.env.RACE_TRIALS ?? 40);
    const s = setup(TRIALS, () => 'first = 1\nsecond = 2\n');
    const trials = [];
    for (let t = 0; t < TRIALS; t++) {
      const edit = (old: string, next: string) => ({
        toolName: 'edit_file',
        input: { path: `/f${t}.txt`, old_string: old, new_string: next },
      });
      const a = await askedHistory({
        ...s,
        callId: `a-${t}`,
        call: edit('first = 1', 'first = 10'),
        approved: true,
      });
      const b = await askedHistory({
        ...s,
        callId: `b-${t}`,
        call: edit('second = 2', 'second = 20'),
        approved: true,
      });
      trials.push({ calls: [{ history: a }, { history: b }] });
    }
    const outs = await race({ ...s, trials }, 2);
    for (let t = 0; t < TRIALS; t++) {
      const results = outs.map((o) => o[t]);
      const content = fs.readFileSync(s.file(t), 'utf8');
      const hasA = content.includes('first = 10');
      const hasB = content.includes('second = 20');
      // Every edit reported as applied is in the file; a refused one says why.
      expect(applied(results[0]), `trial ${t}: ${text(results)} / ${content}`).toBe(hasA);
      expect(applied(results[1]), `trial ${t}: ${text(results)} / ${content}`).toBe(hasB);
      for (const r of results.filter((r) => !applied(r)))
        expect(text(r)).toMatch(/stale_approval|state_mismatch/);
      expect(hasA || hasB).toBe(true);
    }
  }, 240_000);
});
