import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoverChangeSets, Sandbox } from '../../src/index.js';
import { nodeScript } from '../helpers/node-script.js';
import { tempDir } from '../helpers/temp-project.js';

const RCHILD = nodeScript(path.resolve(import.meta.dirname, 'fixtures/review-recover-child-k.ts'));
const CHILD = nodeScript(path.resolve(import.meta.dirname, 'fixtures/review-apply-child-k.ts'));
const REPO = path.resolve(import.meta.dirname, '../..');
const N = 4;

function state(dir: string): string[] {
  const s = Array.from({ length: N }, (_, i) =>
    fs.readFileSync(path.join(dir, `f${i}.txt`), 'utf8').startsWith('new') ? 'new' : 'old',
  );
  s.push(fs.existsSync(path.join(dir, 'del.txt')) ? 'old' : 'new');
  s.push(fs.existsSync(path.join(dir, 'sub/created.txt')) ? 'new' : 'old');
  return s;
}

describe('red-team: kill -9 at every fs call of apply, then recover', () => {
  it('all old or all new at every crash point, no temps left', async () => {
    const log: string[] = [];
    for (let k = 1; k < 60; k++) {
      const files: Record<string, string> = { 'del.txt': 'bye\n' };
      for (let i = 0; i < N; i++) files[`f${i}.txt`] = `old${i}\n`;
      const dir = tempDir(files);
      const c = spawnSync(process.execPath, [CHILD, dir, String(N), String(k)], {
        cwd: REPO,
        encoding: 'utf8',
      });
      const done = c.stdout.includes('done');
      const journal =
        fs.existsSync(path.join(dir, '.sandbox-approval-changesets')) &&
        fs.readdirSync(path.join(dir, '.sandbox-approval-changesets')).length > 0;
      await recoverChangeSets(Sandbox.fromDirectory(dir, { mode: 'rw' }));
      const s = state(dir);
      log.push(`${k}:${done ? 'done' : 'killed'}${journal ? '+j' : ''}:${s.join('')}`);
      expect(new Set(s).size, `k=${k} ${s.join(',')} stdout=${c.stdout}`).toBe(1);
      const stray = fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => f.includes('sandbox-approval-apply'));
      expect(stray, `k=${k}`).toEqual([]);
      if (done) break;
    }
    console.log(log.join(' '));
  }, 300_000);

  it('second kill -9 during recovery, then recover again', async () => {
    const log: string[] = [];
    for (const k of [5, 10, 14, 17, 20]) {
      for (let j = 1; j < 30; j++) {
        const files: Record<string, string> = { 'del.txt': 'bye\n' };
        for (let i = 0; i < N; i++) files[`f${i}.txt`] = `old${i}\n`;
        const dir = tempDir(files);
        spawnSync(process.execPath, [CHILD, dir, String(N), String(k)], {
          cwd: REPO,
          encoding: 'utf8',
        });
        const rc = spawnSync(process.execPath, [RCHILD, dir, String(j)], {
          cwd: REPO,
          encoding: 'utf8',
        });
        await recoverChangeSets(Sandbox.fromDirectory(dir, { mode: 'rw' }));
        const s = state(dir);
        log.push(`${k}/${j}:${s.join('')}`);
        expect(new Set(s).size, `k=${k} j=${j} ${s.join(',')}`).toBe(1);
        const stray = fs
          .readdirSync(dir, { recursive: true })
          .map(String)
          .filter((f) => f.includes('sandbox-approval-apply'));
        expect(stray, `k=${k} j=${j}`).toEqual([]);
        if (rc.stdout.includes('done')) break;
      }
    }
    console.log(log.length);
  }, 400_000);
});
