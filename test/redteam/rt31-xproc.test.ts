// rt31: writes are atomic and nothing is lost. Separate OS processes (no approval layer, writeApproval: false)
// bump their own counter line in ONE CRLF file by edit_file (fuzzy: tab indent + trailing spaces), patch_file and
// edit_lines, while reader processes read the bytes in a loop: no update lost, no torn/empty/odd snapshot,
// line endings and the file's mode kept. Also: many concurrent calls in one process.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { nodeScript } from '../helpers/node-script.js';
import { cleanupAll, mkdir } from './rt31-harness.js';

afterEach(cleanupAll);
const worker = path.join(__dirname, 'rt31-xproc-worker.ts');
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function start(root: string, tag: string, n: number, tool: string) {
  const child = spawn(process.execPath, [nodeScript(worker), root, tag, String(n), tool], {
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
  return new Promise<any>((resolve) =>
    child.on('close', (exit) => {
      try {
        resolve(JSON.parse(out.split('\n').find((l) => l.startsWith('{')) ?? ''));
      } catch {
        resolve({ tag, codes: [`no result (exit ${exit}): ${err.slice(0, 400)}${out.slice(0, 200)}`] });
      }
    }),
  );
}

const PAD = `${'#'.repeat(200)}\r\n`.repeat(2000); // ~400 KB so a non-atomic write would be visible

describe('rt31 cross-process writers + readers on one file', () => {
  for (const [label, tools] of [
    ['edit_file ×4', ['edit', 'edit', 'edit', 'edit']],
    ['edit_file + patch_file + edit_lines', ['edit', 'patch', 'lines', 'edit', 'patch', 'lines']],
  ] as const) {
    it(`${label}: nothing lost, no torn read, CRLF and mode kept`, async () => {
      const root = mkdir('rt31-xp-');
      const file = path.join(root, 'f.txt');
      const tags = tools.map((_, i) => `P${i}`);
      fs.writeFileSync(file, `${tags.map((t) => `\t${t}=0;   \r\n`).join('')}${PAD}`);
      fs.chmodSync(file, 0o640);
      const N = 15;
      const readers = [start(root, 'R0', 12_000, 'read'), start(root, 'R1', 12_000, 'read')];
      const results = await Promise.all(tools.map((t, i) => start(root, tags[i]!, N, t)));
      const reads = await Promise.all(readers);
      const final = fs.readFileSync(file, 'utf8');
      for (const r of results) expect(r.codes, r.tag).toEqual([]);
      for (const r of reads) expect(r.codes, `reader ${r.tag} (${r.reads} reads)`).toEqual([]);
      for (const t of tags) expect(final).toMatch(new RegExp(`^\\t${t}=${N};[ \\t]*\\r$`, 'm'));
      expect(final.endsWith(PAD)).toBe(true);
      expect(final.replace(/\r\n/g, '').includes('\n')).toBe(false);
      expect(fs.statSync(file).mode & 0o777).toBe(0o640);
      // no temp files left behind
      expect(fs.readdirSync(root).filter((f) => f !== 'f.txt')).toEqual([]);
    }, 180_000);
  }

  it('one process: 40 concurrent edit_file calls over 3 toolsets on one file all apply', async () => {
    const root = mkdir('rt31-ip-');
    const file = path.join(root, 'f.txt');
    const K = 40;
    fs.writeFileSync(file, `${Array.from({ length: K }, (_, i) => `  v${i} = 0;  \r\n`).join('')}`);
    const sets = [0, 1, 2].map(
      () => new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false })),
    );
    const outs = await Promise.all(
      Array.from({ length: K }, (_, i) =>
        sets[i % 3]!.callTool('edit_file', {
          path: i % 2 ? '/f.txt' : '/./f.txt',
          old_string: `v${i} = 0;\n`,
          new_string: `v${i} = 1;\n`,
        }),
      ),
    );
    expect(outs.filter((o: any) => !o.ok).map((o: any) => o.error.code)).toEqual([]);
    const final = fs.readFileSync(file, 'utf8');
    for (let i = 0; i < K; i++) expect(final).toContain(`  v${i} = 1;\r\n`);
  }, 60_000);
});
