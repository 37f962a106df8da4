// Red team (rt30a): read_file serves a kept version when the file's dev/ino/size/mtime/ctime are unchanged.
// A writer that keeps the file mapped (mmap, MAP_SHARED) changes bytes without the kernel moving mtime/ctime
// (a second write to a page already dirty does not fault again). The next read_file — plain or hashed —
// returns the earlier read's bytes and SHA-256, not the file's.
// Promise: the content and the anchors are always exactly those of the file read (never bytes of an earlier read).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const PY = `
import mmap, sys
f = open(sys.argv[1], 'r+b'); m = mmap.mmap(f.fileno(), 0)
m[0:5] = b'HELLO'
sys.stdout.write('first\\n'); sys.stdout.flush()
sys.stdin.readline()
m[0:5] = b'BYE!!'
sys.stdout.write('second\\n'); sys.stdout.flush()
sys.stdin.readline()
`;

// Known limitation (docs/security.md): the read cache trusts the inode's size and times. `it.fails` turns
// red when this is fixed.
it.fails('a read after an mmap writer changed the file shows the file, not the kept earlier read', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt30-mmap-'));
  const file = path.join(root, 'a.txt');
  fs.writeFileSync(file, 'hello world\n'.repeat(1000));
  const child = spawn('python3', ['-c', PY, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waitFor = (s: string) =>
    new Promise<void>((resolve) => {
      const h = (d: Buffer) => {
        if (String(d).includes(s)) {
          child.stdout.off('data', h);
          resolve();
        }
      };
      child.stdout.on('data', h);
    });
  try {
    await waitFor('first');
    await new Promise((r) => setTimeout(r, 300)); // the file's ctime is now old enough for the read to be kept
    const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }));
    const r1: any = await ts.callTool('read_file', { path: '/a.txt', head: 1 });
    expect(r1.data.content).toBe('HELLO world');
    child.stdin.write('\n');
    await waitFor('second');
    const disk = fs.readFileSync(file, 'utf8').split('\n')[0];
    expect(disk).toBe('BYE!! world');
    const r2: any = await ts.callTool('read_file', { path: '/a.txt', head: 1 });
    const r3: any = await ts.callTool('read_file', { path: '/a.txt', head: 1, hashes: true });
    expect({ plain: r2.data.content, hashed: r3.data.content.split('|')[1] }).toEqual({
      plain: disk,
      hashed: disk,
    });
  } finally {
    child.stdin.write('\n');
    child.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
