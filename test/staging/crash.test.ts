import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { recoverChangeSets } from '../../src/staging/recover.js';
import { tempDir } from '../helpers/temp-project.js';

const FILES = 6;
const RUNS = 100;
let bundle: string;
let bundleDir: string;

beforeAll(async () => {
  // One bundled script: a plain `node` start per run keeps 100 runs quick.
  bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-crash-'));
  bundle = path.join(bundleDir, 'child.mjs');
  await build({
    entryPoints: [path.join(import.meta.dirname, 'crash-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'silent',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
});
afterAll(() => fs.rmSync(bundleDir, { recursive: true, force: true }));

const STEPS = [
  'verified',
  'journal',
  ...Array.from({ length: FILES + 1 }, (_, i) => `temp:${i}`),
  'committed',
  ...Array.from({ length: FILES + 1 }, (_, i) => `renamed:${i}`),
  'done',
];

/** Runs the child; kills it at `step` (it kills itself) or after `delayMs` once it is ready. */
function runChild(dir: string, step: string, delayMs: number | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, dir, step], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (delayMs !== undefined && out.includes('ready')) setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve(`${out}${signal ?? ''}`));
  });
}

describe('kill -9 during apply', () => {
  it(`leaves every file of the set all old or all new after recovery (${RUNS} runs)`, async () => {
    const outcomes = { old: 0, new: 0, completed: 0, killed: 0 };
    const one = async (run: number) => {
      const files = Object.fromEntries(
        Array.from({ length: FILES }, (_, i) => [`f${i}.txt`, `old ${i}\n${'old line\n'.repeat(run % 7)}`]),
      );
      const dir = tempDir(files);
      // Half the runs die at a chosen step, half at a random moment the parent picks.
      const step = run % 2 === 0 ? STEPS[Math.floor(Math.random() * STEPS.length)]! : 'never';
      const out = await runChild(dir, step, run % 2 === 0 ? undefined : Math.random() * 40);
      if (out.includes('SIGKILL')) outcomes.killed++;
      else {
        expect(out).toContain('applied');
        outcomes.completed++;
      }
      await recoverChangeSets(Sandbox.fromDirectory(dir, { mode: 'rw' }));
      const entries = fs.readdirSync(dir).sort();
      const contents = Object.keys(files).map((n) => fs.readFileSync(path.join(dir, n), 'utf8'));
      const allOld = contents.every((c, i) => c === files[`f${i}.txt`]) && !entries.includes('sub');
      const allNew =
        contents.every((c, i) => c === files[`f${i}.txt`]!.replaceAll('old', 'new')) &&
        fs.readFileSync(path.join(dir, 'sub/created.txt'), 'utf8') === 'new created\n';
      expect(allOld || allNew, `run ${run} (step ${step}): ${JSON.stringify(contents)}`).toBe(true);
      // Nothing left behind: no journal, no temp files.
      expect(entries.filter((e) => e.startsWith('.'))).toEqual([]);
      if (allOld) outcomes.old++;
      else outcomes.new++;
    };
    // Four children at a time: separate processes and directories, so runs do not interfere.
    for (let run = 0; run < RUNS; run += 4) await Promise.all([0, 1, 2, 3].map((k) => one(run + k)));
    console.log(
      `crash test: ${RUNS} runs, ${outcomes.killed} killed mid-apply, ${outcomes.completed} completed; after recovery ${outcomes.old} all old, ${outcomes.new} all new, 0 mixed`,
    );
    expect(outcomes.old).toBeGreaterThan(0);
    expect(outcomes.new).toBeGreaterThan(0);
  }, 120_000);
});
