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

/** A separate OS process swapping things in a tight loop until killed. */
function swapper(dir: string, mode: 'dir' | 'link') {
  if (mode === 'dir') {
    // atomic exchange of d and o (renameat2 RENAME_EXCHANGE): /d always exists, it is just another directory
    const py = `import ctypes,os
libc=ctypes.CDLL(None,use_errno=True)
a=os.path.join(${JSON.stringify(dir)},'d').encode();b=os.path.join(${JSON.stringify(dir)},'o').encode()
while True: libc.renameat2(-100,a,-100,b,2)`;
    return spawn('python3', ['-c', py], { stdio: 'ignore' });
  }
  const code = `const fs=require('fs');const p=require('path');const d=${JSON.stringify(dir)};let i=0;
         for(;;){i++;try{fs.symlinkSync(i%2?'d1':'d2',p.join(d,'ln.tmp'));fs.renameSync(p.join(d,'ln.tmp'),p.join(d,'ln'));}catch{try{fs.unlinkSync(p.join(d,'ln.tmp'))}catch{}}}`;
  return spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
}

describe('a separate process swapping in a tight loop', () => {
  it('parent directory swapped between two equal directories: every applied write lands in the directory shown', async () => {
    const dir = tempDir({ 'd/a.txt': 'base\n', 'o/a.txt': 'base\n' });
    const inoOf = (rel: string) => fs.statSync(P(dir, rel)).ino;
    const dirIno = new Map<number, string>();
    const X = inoOf('d');
    const Y = inoOf('o');
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    let shownSlot = '';
    let shownExists = false;
    const gated = new ApprovalToolset(toolset, {
      approve: async (r: ApprovalRequest) => {
        shownSlot = String((r.targets as { path?: { slot?: string } }).path?.slot);
        shownExists = Boolean((r.payload as { fileExists?: boolean }).fileExists);
        await new Promise((res) => setTimeout(res, Math.random() * 3));
        return { approved: true };
      },
    });
    const child = swapper(dir, 'dir');
    const wrong: string[] = [];
    let oks = 0;
    try {
      // A time budget keeps the suite fast on a loaded machine; the assertion is zero violations.
      const until = Date.now() + 3000;
      for (let i = 0; i < 300 && Date.now() < until; i++) {
        const create = i % 2 === 0;
        const name = create ? `n${i}.txt` : 'a.txt';
        const out = await gated.callTool(
          'write_file',
          { path: `/d/${name}`, content: `v${i}\n` },
          { toolCallId: `c${i}` },
        );
        if (!out.ok) continue;
        oks++;
        await stopProcess(child);
        // find where v{i} landed (either physical dir, whatever its current name)
        await new Promise((r) => setTimeout(r, 0));
        let landed = -1;
        for (let k = 0; k < 50 && landed < 0; k++) {
          for (const n of fs.readdirSync(dir)) {
            try {
              const st = fs.statSync(P(dir, n));
              if (fs.readFileSync(P(dir, `${n}/${name}`), 'utf8') === `v${i}\n`) landed = st.ino;
            } catch {}
          }
        }
        child.kill('SIGCONT');
        const shownIno = Number(shownSlot.split(':')[1]?.split('/')[0]);
        const parentMissingWhenShown = shownSlot.split('/').length > 2; // slot of an ancestor: /d did not exist
        if (landed !== shownIno)
          wrong.push(
            `#${i} ${name} shown ${shownExists ? 'overwrite' : 'create'} in ${shownSlot}${parentMissingWhenShown ? ' (parent missing when shown)' : ''} landed in dir ino ${landed}`,
          );
      }
    } finally {
      child.kill('SIGKILL');
    }
    dirIno.set(X, 'X').set(Y, 'Y');
    console.log(`applied ${oks}/300`);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('link re-pointed between two equal directories: every applied write lands where payload.resolved said', async () => {
    const dir = tempDir({ 'd1/a.txt': 'base\n', 'd2/a.txt': 'base\n' });
    fs.symlinkSync('d1', P(dir, 'ln'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    let shown = '';
    const gated = new ApprovalToolset(toolset, {
      approve: (r: ApprovalRequest) => {
        shown = String((r.payload as { resolved?: { path: string } }).resolved?.path);
        return { approved: true };
      },
    });
    const child = swapper(dir, 'link');
    const wrong: string[] = [];
    let oks = 0;
    try {
      // A time budget keeps the suite fast on a loaded machine; the assertion is zero violations.
      const until = Date.now() + 3000;
      for (let i = 0; i < 300 && Date.now() < until; i++) {
        const name = i % 2 ? 'a.txt' : `n${i}.txt`;
        if (name === 'a.txt') {
          fs.writeFileSync(P(dir, 'd1/a.txt'), `b${i}\n`);
          fs.writeFileSync(P(dir, 'd2/a.txt'), `b${i}\n`);
        }
        const out = await gated.callTool(
          'write_file',
          { path: `/ln/${name}`, content: `v${i}\n` },
          { toolCallId: `c${i}` },
        );
        if (!out.ok) continue;
        oks++;
        const landed = ['d1', 'd2'].filter((d) => {
          try {
            return fs.readFileSync(P(dir, `${d}/${name}`), 'utf8') === `v${i}\n`;
          } catch {
            return false;
          }
        });
        if (landed.length !== 1 || `/${landed[0]}/${name}` !== shown)
          wrong.push(`#${i} shown ${shown} landed ${landed}`);
      }
    } finally {
      child.kill('SIGKILL');
    }
    console.log(`applied ${oks}/300`);
    expect(wrong).toEqual([]);
  }, 120_000);
});
