// rt64: "the same two texts give the same diff whatever the machine's load". The budget is the process's CPU
// time (process.cpuUsage: Node 20 has no threadCpuUsage, so GC and compiler threads count too), and how much CPU
// a diff needs varies from one fresh process to the next (JIT tier-up, GC) and more with both cores busy; a
// pair whose diff needs about the budget comes out exact in one run and coarse (several times git's size) in
// the next, unloaded, and differently again under load.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const TSX = join(__dirname, '../../node_modules/.bin/tsx');
const WORKER = join(__dirname, 'rt64-load-worker.ts');

function run(args: string[]): {
  added: number;
  removed: number;
  coarse: boolean;
  wallMs: number;
  cpuMs: number;
} {
  const o = spawnSync(TSX, [WORKER, ...args], { encoding: 'utf8', timeout: 30_000 });
  if (o.status !== 0) throw new Error(o.stderr);
  return JSON.parse(o.stdout.trim().split('\n').pop()!);
}

describe('rt64: payload diff vs load', () => {
  it('FINDING: 90,000 lines of period 7, 30% edited with its own lines (seed 1): 3 fresh unloaded runs and 3 with both cores busy give different diffs', async () => {
    const args = [
      JSON.stringify({ k: 'periodic', p: 7 }),
      JSON.stringify({ e: 'dense', d: 0.3, src: 'same' }),
      '90000',
      '1',
    ];
    const results: string[] = [];
    for (let i = 0; i < 3; i++) results.push(`unloaded ${JSON.stringify(run(args))}`);
    // Load: two busy loops (this test's own children, ended by their pids).
    const hogs = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    try {
      await new Promise((r) => setTimeout(r, 300));
      for (let i = 0; i < 3; i++) results.push(`loaded ${JSON.stringify(run(args))}`);
    } finally {
      for (const h of hogs) h.kill('SIGKILL');
    }
    console.log(results.join('\n'));
    // actual (unloaded, 4 fresh runs): +25435 −11727 exact (= git), then coarse +48020 −34312, +79944 −66236,
    // +56934 −43226 (cpu ~0.6 s each); loaded: coarse again with other counts. git: +25435 −11727 in ~0.25 s
    const counts = new Set(results.map((r) => r.replace(/^\w+ /, '').replace(/,"wallMs.*$/, '')));
    expect(counts.size).toBe(1);
  }, 60_000);
});
