import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoverChangeSets, Sandbox } from '../../src/index.js';
import { nodeScript } from '../helpers/node-script.js';
import { tempDir } from '../helpers/temp-project.js';

const CHILD = path.resolve(import.meta.dirname, 'fixtures/review-apply-child.ts');
const REPO = path.resolve(import.meta.dirname, '../..');
const N = 12;

function runAndKill(dir: string, delayMs: number): Promise<string> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [nodeScript(CHILD), dir, String(N)], { cwd: REPO });
    let out = '';
    c.stdout.on('data', (d) => {
      out += d;
      if (out.includes('staged')) setTimeout(() => c.kill('SIGKILL'), delayMs);
    });
    c.on('exit', () => resolve(out));
  });
}

describe('red-team: kill -9 mid-apply then recover', () => {
  it('every file all old or all new, never mixed', async () => {
    const journals: string[] = [];
    for (let t = 0; t < 10; t++) {
      const files: Record<string, string> = { 'del.txt': 'bye\n' };
      for (let i = 0; i < N; i++) files[`f${i}.txt`] = `old${i}\n`;
      const dir = tempDir(files);
      await runAndKill(dir, Math.floor(Math.random() * 25));
      const jdir = path.join(dir, '.sandbox-approval-changesets');
      if (fs.existsSync(jdir)) journals.push(JSON.stringify(fs.readdirSync(jdir, { recursive: true })));
      await recoverChangeSets(Sandbox.fromDirectory(dir, { mode: 'rw' }));
      const states = Array.from({ length: N }, (_, i) =>
        fs.readFileSync(path.join(dir, `f${i}.txt`), 'utf8').startsWith('new') ? 'new' : 'old',
      );
      states.push(fs.existsSync(path.join(dir, 'del.txt')) ? 'old' : 'new');
      expect(new Set(states).size, `trial ${t}: ${states.join(',')}`).toBe(1);
      const left = fs
        .readdirSync(dir)
        .filter((f) => !/^f\d+\.txt$|^del\.txt$|^\.sandbox-approval-changesets$/.test(f));
      expect(left, 'temp files left behind').toEqual([]);
    }
    console.log('journals seen:', journals.slice(0, 3));
  }, 120_000);
});
