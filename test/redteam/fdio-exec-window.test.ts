// After the person approved, another OS process replaces the file (rename-over with other bytes) at a random
// moment while the approved write executes (a big write's data goes out asynchronously, then fsync). The
// approved write must either be refused (stale_approval) or replace exactly the approved inode: an ok outcome
// that silently replaced the other process's newer file is a lost update. The docs concede only a
// microseconds-wide window between the last check and rename(2); count how often it is hit.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const MiB = 1048576;

for (const size of [10, MiB + 1, 4 * MiB]) {
  for (const tool of ['write_file', 'edit_file']) {
    it(`${tool} of ${size} bytes: an update made after approval is never silently overwritten`, async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-fdio-win-'));
      const dir = path.join(root, 'm');
      const plants = path.join(root, 'plants');
      fs.mkdirSync(dir);
      fs.mkdirSync(plants);
      const target = path.join(dir, 't.txt');
      fs.writeFileSync(target, `HEAD 0\n${'p'.repeat(size)}\n`);
      const py = `
import os, sys, time
d=${JSON.stringify(dir)}; pl=${JSON.stringify(plants)}; size=${size}
for line in sys.stdin:
  n, delay = line.split()
  time.sleep(float(delay)/1000.0)
  p=os.path.join(pl, n)
  with open(p,'w') as f: f.write('HEAD A%s\\n' % n + 'a'*size + '\\n')
  os.link(p, os.path.join(d, '.pl'))
  os.rename(os.path.join(d, '.pl'), os.path.join(d, 't.txt'))
  sys.stdout.write('done %s\\n' % n); sys.stdout.flush()
`;
      const child = spawn('python3', ['-u', '-c', py], { stdio: ['pipe', 'pipe', 'inherit'] });
      const lines = readline.createInterface({ input: child.stdout! });
      const waiting: ((s: string) => void)[] = [];
      const queued: string[] = [];
      lines.on('line', (l) => {
        const w = waiting.shift();
        if (w) w(l);
        else queued.push(l);
      });
      const next = () =>
        queued.length ? Promise.resolve(queued.shift()!) : new Promise<string>((r) => waiting.push(r));

      const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
        limits: { readMaxChars: 10 * MiB, readMaxLines: 1_000_000 },
      });
      let n = 0;
      let delay = 0;
      const gated = new ApprovalToolset(ts, {
        approve: () => {
          child.stdin!.write(`${n} ${delay}\n`);
          return { approved: true };
        },
      });
      const lost: string[] = [];
      const tally: Record<string, number> = {};
      let calibrated = 0;
      try {
        // 80 tries, 40 at 4 MiB (each try writes 4 MiB twice and diffs it: 1.6 s).
        for (let i = 0; i < (size > MiB + 1 ? 40 : 80); i++) {
          n = i;
          // spread the swap over the execution time measured so far
          delay = Math.random() * (calibrated || 2);
          const head = fs.readFileSync(target, 'utf8').split('\n', 1)[0]!;
          const t0 = performance.now();
          const out: any =
            tool === 'write_file'
              ? await gated.callTool('write_file', {
                  path: '/t.txt',
                  content: `HEAD N${i}\n${'n'.repeat(size)}\n`,
                })
              : await gated.callTool('edit_file', {
                  path: '/t.txt',
                  old_string: `${head}\n`,
                  new_string: `HEAD N${i}\n`,
                });
          const took = performance.now() - t0;
          calibrated = Math.max(calibrated, took);
          await next(); // the swap happened (before, during or after execution)
          const code = out.ok ? 'ok' : out.error.code;
          tally[code] = (tally[code] ?? 0) + 1;
          const nlink = fs.statSync(path.join(plants, String(i))).nlink;
          if (out.ok && nlink === 1) lost.push(`#${i} delay ${delay.toFixed(2)}ms of ${took.toFixed(1)}ms`);
          if (!out.ok && !['stale_approval'].includes(code))
            lost.push(`#${i}: unexpected ${code} ${out.error.message}`);
          // put a fresh inode back for the next round, as the other process left it
        }
      } finally {
        child.kill('SIGKILL');
        fs.rmSync(root, { recursive: true, force: true });
      }
      console.log(`${tool} ${size}: ${JSON.stringify(tally)} lost=${lost.length}`, lost.slice(0, 5));
      // The window (from the last lstat to rename(2), two system calls) is microseconds wide: on a
      // quiet machine it is not hit in 80 tries; under a loaded 2-core CI a preempted thread can
      // stretch it, and it was hit 3 times once. Without the checks, dozens of tries lose the update.
      expect(lost.length).toBeLessThanOrEqual(3);
    }, 240_000);
  }
}
