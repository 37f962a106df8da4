// Red team rt56, Promise C: several OS processes editing one file, or many files of one directory,
// at once (edit_file, patch_file, edit_lines, write_file with a base, all retried on conflicts):
// no update is lost, no temp file is left, each file's mode is kept.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeScript } from '../helpers/node-script.js';
import { tmp } from './rt56-helpers.js';

const worker = path.join(import.meta.dirname, 'rt56-xproc-worker.ts');
function run(root: string, job: object): Promise<{ results: any[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nodeScript(worker), root, JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!))
        : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
}

async function scenario(workers: number, rounds: number, fileCount: number, modes: number[]) {
  const files = Array.from({ length: fileCount }, (_, k) => `/d/f${k}.txt`);
  const content: Record<string, string> = {};
  for (const [k, f] of files.entries()) {
    const lines = [`# file ${k}`];
    for (let w = 0; w < workers; w++)
      for (let r = 0; r < rounds; r++)
        if ((w + r) % fileCount === k) lines.push(`W${w}R${r}: todo`, `  filler ${w} ${r}`);
    content[f.slice(1)] = `${lines.join('\n')}\n`;
  }
  const root = tmp(content);
  for (const [k, f] of files.entries()) fs.chmodSync(path.join(root, f), modes[k % modes.length]!);
  const outs = await Promise.all(
    Array.from({ length: workers }, (_, id) => run(root, { id, files, rounds })),
  );
  const failed = outs.flatMap((o, id) => o.results.map((r, k) => ({ id, k, ...r })).filter((r) => !r.ok));
  const dirEntries = fs.readdirSync(path.join(root, 'd'));
  const finals = files.map((f) => fs.readFileSync(path.join(root, f), 'utf8'));
  const modesAfter = files.map((f) => fs.statSync(path.join(root, f)).mode & 0o7777);
  return { failed, dirEntries, finals, modesAfter, content, files, root };
}

describe('rt56 C: many processes, one directory', () => {
  it('6 processes x 12 rounds over 3 files (4 tools), modes 0600/0755/0640', async () => {
    const modes = [0o600, 0o755, 0o640];
    const s = await scenario(6, 12, 3, modes);
    expect(s.failed).toEqual([]);
    expect(s.dirEntries.sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt']);
    for (const [k, f] of s.finals.entries())
      expect(f).toBe(s.content[s.files[k]!.slice(1)]!.replaceAll(': todo', ': done'));
    expect(s.modesAfter).toEqual(modes);
  }, 240_000);

  it('6 processes x 10 rounds on one file', async () => {
    const s = await scenario(6, 10, 1, [0o751]);
    expect(s.failed).toEqual([]);
    expect(s.dirEntries).toEqual(['f0.txt']);
    expect(s.finals[0]).toBe(s.content['d/f0.txt']!.replaceAll(': todo', ': done'));
    expect(s.modesAfter).toEqual([0o751]);
  }, 240_000);
});

describe('rt56 C: heavier', () => {
  it('10 processes x 30 rounds over 4 files, modes incl. setgid/sticky', async () => {
    const modes = [0o600, 0o2755, 0o1644, 0o444];
    const s = await scenario(10, 30, 4, modes);
    expect(s.failed).toEqual([]);
    expect(s.dirEntries.sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt']);
    for (const [k, f] of s.finals.entries())
      expect(f).toBe(s.content[s.files[k]!.slice(1)]!.replaceAll(': todo', ': done'));
    expect(s.modesAfter).toEqual(modes);
  }, 400_000);
});
