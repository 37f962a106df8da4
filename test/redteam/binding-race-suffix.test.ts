import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { approveAll } from '../../src/approval/policies.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';

const P = (dir: string, rel: string) => path.join(dir, rel);

describe('suffix policy on where a link leads, while another process re-points the link / swaps a parent', () => {
  it('read_file /env.md (link flipping between note.md and .env) never returns .env', async () => {
    const dir = tempDir({
      'note.md': 'fine\n',
      '.env': 'SECRET=1\n',
      'sub/x.md': 'fine\n',
      'alt/x.md': 'SECRET=2\n',
    });
    fs.symlinkSync('note.md', P(dir, 'env.md'));
    fs.symlinkSync('x.md', P(dir, 'sub/l.md'));
    fs.rmSync(P(dir, 'alt/x.md'));
    fs.symlinkSync('../.env', P(dir, 'alt/x.md'));
    fs.symlinkSync('../.env', P(dir, 'alt/l.md'));
    const code = `const fs=require('fs');const p=require('path');const d=${JSON.stringify(dir)};let i=0;
for(;;){i++;try{fs.symlinkSync(i%2?'note.md':'.env',p.join(d,'e.tmp'));fs.renameSync(p.join(d,'e.tmp'),p.join(d,'env.md'));}catch{try{fs.unlinkSync(p.join(d,'e.tmp'))}catch{}}}`;
    const py = `import ctypes
libc=ctypes.CDLL(None,use_errno=True)
a=${JSON.stringify(P(dir, 'sub'))}.encode();b=${JSON.stringify(P(dir, 'alt'))}.encode()
while True: libc.renameat2(-100,a,-100,b,2)`;
    const c1 = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
    const c2 = spawn('python3', ['-c', py], { stdio: 'ignore' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', suffixes: ['.md'] }));
    const gated = new ApprovalToolset(toolset, { approve: approveAll() });
    const leaks: string[] = [];
    try {
      // A time budget keeps the suite fast on a loaded machine; the assertion is zero violations.
      const until = Date.now() + 3000;
      for (let i = 0; i < 1500 && Date.now() < until; i++) {
        for (const p of ['/env.md', '/sub/x.md', '/sub/l.md']) {
          const o = await gated.callTool('read_file', { path: p });
          if (JSON.stringify(o).includes('SECRET')) leaks.push(`${i} ${p}`);
        }
        if (i % 50 === 0) {
          const m = await gated.callTool('read_many_files', { paths: ['/env.md', '/sub/x.md', '/sub/l.md'] });
          if (JSON.stringify(m).includes('SECRET')) leaks.push(`${i} read_many`);
        }
      }
    } finally {
      c1.kill('SIGKILL');
      c2.kill('SIGKILL');
    }
    expect(leaks).toEqual([]);
  }, 180_000);
});
