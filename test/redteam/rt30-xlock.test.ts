// Red team (rt30a): OS processes, each with its own toolset (and some with the sandbox root spelled through a
// link), bump their own counter line in ONE shared file through the approval layer, naming it by different
// spellings and links. Promise: no update is lost, and check → prompt → write holds per file across
// processes, so no call ever finds its approved state gone (no stale_approval), and a holder killed with
// SIGKILL mid-prompt frees the file for the others (and, while it holds, nobody writes).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeScript } from '../helpers/node-script.js';

const worker = path.join(__dirname, 'rt30-xlock-worker.ts');

const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

interface Run {
  child: ChildProcess;
  done: Promise<{ tag: string; codes: string[]; err: string; exit: number | null; signal: string | null }>;
}

function start(root: string, tag: string, n: number, spelling: string, mode = 'bump'): Run {
  const child = spawn(process.execPath, [nodeScript(worker), root, tag, String(n), spelling, mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const done = new Promise<any>((resolve) => {
    child.on('close', (exit, signal) => {
      const json = out.split('\n').find((l) => l.startsWith('{'));
      try {
        resolve({ ...JSON.parse(json ?? ''), err, exit, signal });
      } catch {
        resolve({ tag, codes: [`no result: ${err}${out}`], err, exit, signal });
      }
    });
  });
  return { child, done };
}

function setup() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30-xlock-')));
  const root = path.join(dir, 'root');
  fs.mkdirSync(path.join(root, 'd'), { recursive: true });
  fs.symlinkSync('d/shared.txt', path.join(root, 'link.txt'));
  fs.symlinkSync('d', path.join(root, 'd2'));
  fs.symlinkSync('root', path.join(dir, 'rootlink'));
  return { dir, root, rootlink: path.join(dir, 'rootlink') };
}

const spellings = (root: string, rootlink: string): Array<[string, string]> => [
  [root, '/d/shared.txt'],
  [root, 'd/shared.txt'],
  [root, '/./d/../d//shared.txt'],
  [root, '/link.txt'],
  [root, '/d2/shared.txt'],
  [rootlink, '/d/shared.txt'],
  [rootlink, '/link.txt'],
];

describe('cross-process approval locks', () => {
  for (let round = 0; round < 2; round++) {
    it(`7 processes × 20 bumps, one file by 7 spellings (round ${round}): nothing lost, never stale`, async () => {
      const { dir, root, rootlink } = setup();
      const list = spellings(root, rootlink);
      const tags = list.map((_, i) => `P${i}`);
      const pad = round === 1 ? `${'#'.repeat(1 << 20)}\n` : '';
      fs.writeFileSync(path.join(root, 'd/shared.txt'), `${tags.map((t) => `${t}=0;`).join('\n')}\n${pad}`);
      const N = 20;
      const results = await Promise.all(list.map(([r, s], i) => start(r, tags[i]!, N, s).done));
      const final = fs.readFileSync(path.join(root, 'd/shared.txt'), 'utf8');
      const links = [
        fs.lstatSync(path.join(root, 'link.txt')).isSymbolicLink(),
        fs.lstatSync(path.join(root, 'd2')).isSymbolicLink(),
      ];
      fs.rmSync(dir, { recursive: true, force: true });
      expect(links).toEqual([true, true]);
      for (const r of results) expect(r.codes, `${r.tag}: ${r.err}`).toEqual([]);
      expect(final).toBe(`${tags.map((t) => `${t}=${N};`).join('\n')}\n${pad}`);
    }, 300_000);
  }

  it('a holder SIGKILLed in its prompt: nobody writes while it holds, everyone finishes after', async () => {
    const { dir, root, rootlink } = setup();
    const list = spellings(root, rootlink);
    const tags = list.map((_, i) => `P${i}`);
    const file = path.join(root, 'd/shared.txt');
    fs.writeFileSync(file, `${tags.map((t) => `${t}=0;`).join('\n')}\nH=0;\n`);
    const holder = start(rootlink, 'H', 1, '/link.txt', 'hang');
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('holder never prompted')), 60_000);
      holder.child.stdout!.on('data', (d) => {
        if (String(d).includes('HOLDING')) {
          clearTimeout(t);
          resolve();
        }
      });
    });
    const before = fs.readFileSync(file, 'utf8');
    const N = 8;
    const runs = list.map(([r, s], i) => start(r, tags[i]!, N, s));
    await new Promise((r) => setTimeout(r, 4000)); // the others start (tsx) and wait on the lock
    const during = fs.readFileSync(file, 'utf8');
    holder.child.kill('SIGKILL');
    const results = await Promise.all(runs.map((r) => r.done));
    const h = await holder.done;
    const final = fs.readFileSync(file, 'utf8');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(h.signal).toBe('SIGKILL');
    expect(during).toBe(before);
    for (const r of results) expect(r.codes, `${r.tag}: ${r.err}`).toEqual([]);
    expect(final).toBe(`${tags.map((t) => `${t}=${N};`).join('\n')}\nH=0;\n`);
  }, 120_000);

  it('creates of one new file (in a new directory) by 6 spellings of its parent: one create each, never stale', async () => {
    const { dir, root, rootlink } = setup();
    const list: Array<[string, string]> = [
      [root, '/d'],
      [root, 'd'],
      [root, '/d2'],
      [root, '/./d2/../d'],
      [rootlink, '/d2'],
      [rootlink, '/d'],
    ];
    const N = 15;
    const results: any[] = await Promise.all(list.map(([r, s], i) => start(r, `C${i}`, N, s, 'create').done));
    fs.rmSync(dir, { recursive: true, force: true });
    for (const r of results) expect(r.codes, `${r.tag}: ${r.err}`).toEqual([]);
    const creates = results.flatMap((r) => r.creates as number[]).sort((a, b) => a - b);
    expect(creates).toEqual(Array.from({ length: N }, (_, i) => i));
  }, 120_000);
});
