import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { createTwoFilesPatch } from 'diff';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { decideAll } from '../src/staging/decisions.js';
import { terminalReviewer } from '../src/terminal/review/terminal-reviewer.js';
import { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import { median, type Row } from './measure.js';
import { paired } from './pairs.js';

const LINES = 200;

function baseText(file: number): string {
  return `${Array.from({ length: LINES }, (_, i) => `export const v${file}_${i} = compute(${i}); // line ${i}`).join('\n')}\n`;
}

/** Every other line of the first `changed * 2` lines rewritten: `changed` changed lines per file. */
function changedText(file: number, changed: number): string {
  const lines = baseText(file).split('\n');
  for (let i = 0; i < changed * 2; i += 2)
    lines[i] = `export const v${file}_${i} = computeFaster(${i}); // changed`;
  return lines.join('\n');
}

function workspace(files: number) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-review-')));
  for (let f = 0; f < files; f++) fs.writeFileSync(path.join(dir, `f${f}.ts`), baseText(f));
  const sandbox = Sandbox.fromDirectory(dir, { mode: 'rw' });
  return { dir, sandbox };
}

async function stage(toolset: FileSystemToolset, files: number, changed: number): Promise<void> {
  for (let f = 0; f < files; f++)
    await toolset.callTool('write_file', { path: `/f${f}.ts`, content: changedText(f, changed) });
}

/** From building the change set to the reviewer's first screen written. */
async function firstScreen(toolset: FileSystemToolset): Promise<number> {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  let start = 0;
  let drawn = 0;
  const output = Object.assign(
    new Writable({
      write(chunk, _e, done) {
        if (!drawn && String(chunk).includes('Review')) drawn = performance.now() - start;
        done();
      },
    }),
    { isTTY: true, columns: 100, rows: 30 },
  );
  start = performance.now();
  const set = toolset.staging!.changeSet();
  // Keys typed before the screen is armed are dropped by design: keep typing q until it quits.
  const typing = setInterval(() => {
    if (drawn) input.write('q');
  }, 1);
  await terminalReviewer({ input, output, armDelayMs: 0, color: true })(set);
  clearInterval(typing);
  if (!drawn) throw new Error('the review screen was not drawn');
  return drawn;
}

/** Medians of several functions timed in turn (A B C A B C …) after one warm-up each. */
async function interleaved(runs: number, fns: (() => Promise<unknown>)[]): Promise<number[]> {
  const times = fns.map(() => [] as number[]);
  for (const fn of fns) await fn();
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of fns.entries()) {
      const start = performance.now();
      await fn();
      times[k]!.push(performance.now() - start);
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!);
}

export async function benchReview(files: number, changed: number, runs: number): Promise<Row[]> {
  const { dir, sandbox } = workspace(files);
  const direct = new FileSystemToolset(sandbox);
  // 1. Time to the first review screen (the review is closed at once: nothing applied).
  const staged = new FileSystemToolset(sandbox, { staging: true });
  await stage(staged, files, changed);
  const screens: number[] = [];
  for (let i = 0; i <= runs; i++) screens.push(await firstScreen(staged));
  screens.shift();
  screens.sort((a, b) => a - b);
  const screen = screens[Math.floor(screens.length / 2)]!;
  // Baseline: what any diff view pays first, a unified diff of every file (the `diff` package).
  const patchBaseline = await median(runs, () => {
    for (let f = 0; f < files; f++) createTwoFilesPatch('a', 'b', baseText(f), changedText(f, changed));
  });
  // 2. Reads: unstaged files through a staging toolset (50 other files staged), and staged files.
  const readAll = (t: FileSystemToolset, prefix: string) => async () => {
    for (let f = 0; f < files; f++) {
      const r = await t.callTool('read_file', { path: `/${prefix}${f}.ts` });
      if (!r.ok) return r;
    }
    return { ok: true };
  };
  for (let f = 0; f < files; f++) fs.copyFileSync(path.join(dir, `f${f}.ts`), path.join(dir, `g${f}.ts`));
  // Interleaved, so load from other processes on the machine hits all three alike.
  const [directRead = 0, stagedUnstagedRead = 0, stagedRead = 0] = await interleaved(runs * 2, [
    readAll(direct, 'g'),
    readAll(staged, 'g'),
    readAll(staged, 'f'),
  ]);
  // 3. Apply of the whole set vs writing the same files directly (atomic writes, each synced).
  let fresh: FileSystemToolset | undefined;
  let reviewed: ReturnType<NonNullable<FileSystemToolset['staging']>['changeSet']> | undefined;
  const restage = async () => {
    for (let f = 0; f < files; f++) fs.writeFileSync(path.join(dir, `f${f}.ts`), baseText(f));
    fresh = new FileSystemToolset(sandbox, { staging: true });
    await stage(fresh, files, changed);
    // The set as the reviewer was shown it (building it is the first screen's cost, timed above);
    // apply is given it, as review() gives it.
    reviewed = fresh.staging!.changeSet();
  };
  // Interleaved pairs (both start from the base files on disk, the set staged afresh): fifty
  // synced writes vary with the disk from one moment to the next, and drift must land on both.
  const applied = await paired(
    runs,
    () => stage(direct, files, changed).then(() => ({ ok: true })),
    () => fresh!.staging!.apply(decideAll(reviewed!, 'accept'), { changeSet: reviewed! }),
    restage,
  );
  const apply = applied.toolMs;
  const writeDirect = applied.baselineMs;
  fs.rmSync(dir, { recursive: true, force: true });
  const label = `${files} files, ${(files * changed).toLocaleString('en')} changed lines`;
  return [
    {
      name: `review: first screen (${label})`,
      ms: screen,
      baseline: 'createTwoFilesPatch of every file',
      baselineMs: patchBaseline,
      target: '≤ 100 ms',
    },
    {
      name: `staged read_file ×${files} (files not staged)`,
      ms: stagedUnstagedRead,
      baseline: 'direct read_file',
      baselineMs: directRead,
      target: '≤ 1.5×',
    },
    {
      name: `staged read_file ×${files} (staged files)`,
      ms: stagedRead,
      baseline: 'direct read_file',
      baselineMs: directRead,
      target: '≤ 1.5×',
    },
    {
      name: `apply reviewed set (${label})`,
      ms: apply,
      baseline: `write_file ×${files} directly`,
      baselineMs: writeDirect,
      ratio: applied.ratio,
      target: '≤ 2×',
    },
  ];
}
