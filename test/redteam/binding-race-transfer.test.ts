import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { stopProcess } from '../helpers/stop-process.js';
import { tempDir } from '../helpers/temp-project.js';

const P = (dir: string, rel: string) => path.join(dir, rel);

describe('move/copy with overwrite while another process exchanges the destination directory', () => {
  for (const tool of ['move_file', 'copy_file'] as const) {
    it(`${tool}: never replaces a destination the person was not shown`, async () => {
      const dir = tempDir({ 'd/t.txt': 'SHOWN-A\n', 'o/t.txt': 'UNSEEN-B\n' });
      const py = `import ctypes
libc=ctypes.CDLL(None,use_errno=True)
a=${JSON.stringify(P(dir, 'd'))}.encode();b=${JSON.stringify(P(dir, 'o'))}.encode()
while True: libc.renameat2(-100,a,-100,b,2)`;
      const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
      let shownDest = '';
      const gated = new ApprovalToolset(toolset, {
        approve: async (r: ApprovalRequest) => {
          shownDest = String((r.payload as { destinationSha256?: string }).destinationSha256);
          await new Promise((res) => setTimeout(res, Math.random() * 2));
          return { approved: true };
        },
      });
      const { createHash } = await import('node:crypto');
      const sha = (s: string) => createHash('sha256').update(s).digest('hex');
      const child = spawn('python3', ['-c', py], { stdio: 'ignore' });
      const X = fs.statSync(P(dir, 'd')).ino;
      const lost: string[] = [];
      let oks = 0;
      try {
        // A time budget keeps the suite fast on a loaded machine; the assertion is zero violations.
        const until = Date.now() + 3000;
        for (let i = 0; i < 250 && Date.now() < until; i++) {
          fs.writeFileSync(P(dir, `s${i}.txt`), `v${i}\n`);
          const out = await gated.callTool(
            tool,
            { source: `/s${i}.txt`, destination: '/d/t.txt', overwrite: true },
            { toolCallId: `c${i}` },
          );
          await stopProcess(child);
          if (out.ok) {
            oks++;
            const shown =
              shownDest === sha('SHOWN-A\n') ? 'SHOWN-A' : shownDest === sha('UNSEEN-B\n') ? 'UNSEEN-B' : '?';
            for (const n of ['d', 'o']) {
              if (fs.readFileSync(P(dir, `${n}/t.txt`), 'utf8') !== `v${i}\n`) continue;
              const was = fs.statSync(P(dir, n)).ino === X ? 'SHOWN-A' : 'UNSEEN-B';
              if (was !== shown) lost.push(`#${i}: person saw destination "${shown}", "${was}" was replaced`);
            }
          }
          for (const n of ['d', 'o'])
            fs.writeFileSync(
              P(dir, `${n}/t.txt`),
              fs.statSync(P(dir, n)).ino === X ? 'SHOWN-A\n' : 'UNSEEN-B\n',
            );
          child.kill('SIGCONT');
        }
      } finally {
        child.kill('SIGKILL');
      }
      console.log(`${tool}: applied ${oks}/250, replaced unseen ${lost.length}`);
      expect(lost).toEqual([]);
    }, 120_000);
  }
});
