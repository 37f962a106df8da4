/**
 * Four server processes execute four different approved edits of ONE file, each asked through a
 * different spelling (/f.txt, a symlink to it, /d/../f.txt, a symlinked parent dir). Promised: no update
 * lost — every edit reported applied is on disk, and the symlinks stay links.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { nodeScript } from '../helpers/node-script.js';
import { tempDir } from '../helpers/temp-project.js';
import { askedHistory } from '../web/fixtures/ask-history.js';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const WORKER = path.resolve(REPO, 'test/web/fixtures/race-worker.ts');
const applied = (o: unknown) => (o as { type?: string })?.type === 'json';

describe('one file, four spellings, four processes', () => {
  it('no update lost; links stay links (every trial)', async () => {
    const TRIALS = Number(process.env.RT_TRIALS ?? 10);
    const root = tempDir();
    const project = path.join(root, 'project');
    fs.mkdirSync(path.join(project, 'real'), { recursive: true });
    fs.symlinkSync('real', path.join(project, 'dir-link'));
    const trials = [];
    for (let t = 0; t < TRIALS; t++) {
      fs.writeFileSync(path.join(project, 'real', `f${t}.txt`), 'a = 0\nb = 0\nc = 0\nd = 0\n');
      fs.symlinkSync(`f${t}.txt`, path.join(project, 'real', `l${t}.txt`));
      const spellings = [
        `/real/f${t}.txt`,
        `/real/l${t}.txt`,
        `/real/../real/f${t}.txt`,
        `/dir-link/f${t}.txt`,
      ];
      const calls = [];
      for (const [i, p] of spellings.entries()) {
        const v = 'abcd'[i]!;
        const call = {
          toolName: 'edit_file',
          input: { path: p, old_string: `${v} = 0`, new_string: `${v} = 1` },
        };
        calls.push({
          history: await askedHistory({
            project,
            store: path.join(root, 'store'),
            callId: `c-${t}-${v}`,
            call,
            approved: true,
          }),
        });
      }
      trials.push({ calls });
    }
    const barrier = path.join(root, 'barrier');
    fs.mkdirSync(barrier);
    const planFile = path.join(root, 'plan.json');
    fs.writeFileSync(
      planFile,
      JSON.stringify({ project, store: path.join(root, 'store'), trials, barrier, workers: 4 }),
    );
    const outs = (
      await Promise.all(
        [0, 1, 2, 3].map((w) =>
          run(process.execPath, [nodeScript(WORKER), planFile, String(w)], {
            cwd: REPO,
            maxBuffer: 1 << 24,
          }),
        ),
      )
    ).map(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1)!) as unknown[]);
    const bad: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const n = outs.filter((o) => applied(o[t])).length;
      const content = fs.readFileSync(path.join(project, 'real', `f${t}.txt`), 'utf8');
      const changes = (content.match(/= 1/g) ?? []).length;
      if (n !== changes || n < 1) bad.push(`trial ${t}: ${n} applied, ${changes} on disk`);
      if (!fs.lstatSync(path.join(project, 'real', `l${t}.txt`)).isSymbolicLink())
        bad.push(`trial ${t}: link replaced`);
    }
    expect(bad).toEqual([]);
  }, 300_000);
});
