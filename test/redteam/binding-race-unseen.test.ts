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

describe('another process exchanging two directories with DIFFERENT content', () => {
  it('an approved overwrite never replaces content the person was not shown', async () => {
    const dir = tempDir({ 'd/a.txt': 'SHOWN-A\n', 'o/a.txt': 'UNSEEN-B\n' });
    const py = `import ctypes
libc=ctypes.CDLL(None,use_errno=True)
a=${JSON.stringify(P(dir, 'd'))}.encode();b=${JSON.stringify(P(dir, 'o'))}.encode()
while True: libc.renameat2(-100,a,-100,b,2)`;
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    let shownDiff = '';
    const gated = new ApprovalToolset(toolset, {
      approve: async (r: ApprovalRequest) => {
        shownDiff = String((r.payload as { unifiedDiff?: string }).unifiedDiff);
        await new Promise((res) => setTimeout(res, Math.random() * 2));
        return { approved: true };
      },
    });
    const child = spawn('python3', ['-c', py], { stdio: 'ignore' });
    const X = fs.statSync(P(dir, 'd')).ino;
    const lost: string[] = [];
    let oks = 0;
    try {
      // A time budget keeps the suite fast on a loaded machine; the assertion is zero violations.
      const until = Date.now() + 3000;
      for (let i = 0; i < 400 && Date.now() < until; i++) {
        const out = await gated.callTool(
          'write_file',
          { path: '/d/a.txt', content: `v${i}\n` },
          { toolCallId: `c${i}` },
        );
        await stopProcess(child);
        if (out.ok) {
          oks++;
          const shownRemoved = shownDiff.includes('-SHOWN-A')
            ? 'SHOWN-A'
            : shownDiff.includes('-UNSEEN-B')
              ? 'UNSEEN-B'
              : '?';
          for (const n of ['d', 'o']) {
            if (fs.readFileSync(P(dir, `${n}/a.txt`), 'utf8') !== `v${i}\n`) continue;
            const was = fs.statSync(P(dir, n)).ino === X ? 'SHOWN-A' : 'UNSEEN-B';
            if (was !== shownRemoved)
              lost.push(`#${i}: person saw "-${shownRemoved}", but "${was}" was overwritten`);
          }
        }
        // restore the two distinct files in their own directories
        for (const n of ['d', 'o']) {
          const mine = fs.statSync(P(dir, n)).ino === X ? 'SHOWN-A\n' : 'UNSEEN-B\n';
          fs.writeFileSync(P(dir, `${n}/a.txt`), mine);
        }
        child.kill('SIGCONT');
      }
    } finally {
      child.kill('SIGKILL');
    }
    console.log(`applied ${oks}/400, overwrote unseen content ${lost.length} times`);
    expect(lost).toEqual([]);
  }, 120_000);
});
