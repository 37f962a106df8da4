import { execFile, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isTempFileName } from '../../src/fs/atomic-write.js';
import { openDirectoryInside } from '../../src/fs/dir-handle.js';
import { DEAD_WRITER_GRACE_MS, sweepStaleTempFiles } from '../../src/fs/stale-temp-files.js';
import { nodeScript } from '../helpers/node-script.js';
import { tempDir } from '../helpers/temp-project.js';

const here = import.meta.dirname;
const run = promisify(execFile);
const ITERATIONS = Number(process.env.RACE_ITERATIONS ?? 2_000);

describe('atomic writes survive kill -9', () => {
  it('leaves the old or the new content, never a torn file, over 100 kills', async () => {
    const dir = fs.realpathSync(tempDir());
    const file = path.join(dir, 'big.txt');
    fs.writeFileSync(file, 'INITIAL');
    const valid = new Set(['INITIAL', 'A', 'B']);
    let kills = 0;
    for (let i = 0; i < 100; i++) {
      const child = fork(nodeScript(path.join(here, 'write-loop-child.ts')), [file, dir], {
        execArgv: [],
        stdio: 'ignore',
      });
      await new Promise<void>((resolve) => child.once('message', () => resolve()));
      await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 60)));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      kills++;
      const content = fs.readFileSync(file, 'latin1');
      const kind =
        content === 'INITIAL'
          ? 'INITIAL'
          : content.length === 4 * 1024 * 1024 && /^(A+|B+)$/.test(content)
            ? content[0]!
            : 'TORN';
      expect(valid.has(kind), `after kill ${kills}: ${kind} (${content.length} bytes)`).toBe(true);
    }
    // Killed writers leave their temp files behind; they are recognisable for cleanup.
    const leftovers = fs.readdirSync(dir).filter((n) => n !== 'big.txt');
    expect(leftovers.every(isTempFileName)).toBe(true);
    // Their writers are dead: once past the grace period, the next write's sweep removes them all.
    const handle = await openDirectoryInside(dir, dir, { create: false, displayPath: '/' });
    const swept = await sweepStaleTempFiles(handle, {
      now: Date.now() + DEAD_WRITER_GRACE_MS + 1_000,
      force: true,
    }).finally(() => handle.close());
    expect(swept.sort()).toEqual([...leftovers].sort());
    expect(fs.readdirSync(dir)).toEqual(['big.txt']);
    console.log(
      `kill -9 test: ${kills} kills, 0 torn files, ${leftovers.length} recognisable temp files left, ${swept.length} removed by the stale-temp sweep`,
    );
  }, 120_000);
});

describe('directory ↔ symlink swap race', () => {
  it('never reads or writes outside while a directory is swapped for a symlink to outside', async () => {
    const { stdout } = await run(
      process.execPath,
      [nodeScript(path.join(here, 'race-runner.ts')), String(ITERATIONS)],
      {
        timeout: 150_000,
      },
    );
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      iterations: number;
      swaps: number;
      refused: number;
      leaked: number;
      outsideEntries: string[];
      canary: string;
    };
    expect(report.iterations).toBe(ITERATIONS);
    expect(report.leaked).toBe(0);
    expect(report.canary).toBe('OUTSIDE CANARY\n');
    expect(report.outsideEntries, 'entries outside').toEqual(['f.txt']);
    expect(report.swaps).toBeGreaterThan(100);
    expect(report.refused).toBeGreaterThan(0);
    console.log(
      `race test: ${report.iterations} iterations × 3 calls, ${report.swaps} swaps by the other process, ${report.refused} calls refused, ${report.leaked} outside reads, ${report.outsideEntries.length - 1} files created outside`,
    );
  }, 180_000);
});
