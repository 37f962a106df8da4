// Separate OS processes editing one file (small, and just over 1 MiB where data I/O goes async) through the
// approval layer: every successful call's update survives (no lost update), the file is never torn.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const worker = path.join(__dirname, 'fdio-xproc-worker.ts');
const tsx = path.join(__dirname, '../../node_modules/.bin/tsx');

function run(dir: string, tag: string, n: number, tool: string) {
  return new Promise<{ tag: string; failures: number; err: string }>((resolve) => {
    const c = spawn(tsx, [worker, dir, tag, String(n), tool], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => {
      out += d;
    });
    c.stderr.on('data', (d) => {
      err += d;
    });
    c.on('close', () => {
      try {
        resolve({ ...JSON.parse(out), err });
      } catch {
        resolve({ tag, failures: -1, err: err + out });
      }
    });
  });
}

for (const padding of [0, 1048576]) {
  for (const tool of ['edit_file', 'edit_lines', 'write_file', 'patch_file']) {
    it(`3 processes × 25 ${tool} bumps, file padded by ${padding}: no update lost`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-fdio-x-'));
      const tags = ['A', 'B', 'C'];
      const pad = padding ? `${'#'.repeat(padding)}\n` : '';
      fs.writeFileSync(path.join(dir, 'shared.txt'), `${tags.map((t) => `${t}=0;`).join('\n')}\n${pad}`);
      if (tool === 'patch_file') {
        // patch needs one line per worker it can find with context-free hunks
      }
      const N = 25;
      const results = await Promise.all(tags.map((t) => run(dir, t, N, tool)));
      const final = fs.readFileSync(path.join(dir, 'shared.txt'), 'utf8');
      fs.rmSync(dir, { recursive: true, force: true });
      for (const r of results) expect(r.failures, `${r.tag}: ${r.err}`).toBe(0);
      const header = `${tags.map((t) => `${t}=${N};`).join('\n')}\n`;
      expect(final.slice(0, header.length)).toBe(header);
      expect(final.length).toBe(`${tags.map((t) => `${t}=${N};`).join('\n')}\n${pad}`.length);
      expect(fs.existsSync(dir)).toBe(false);
    }, 240_000);
  }
}
