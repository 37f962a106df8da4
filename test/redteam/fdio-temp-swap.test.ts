// Another OS process watches the directory and, as soon as the atomic-write temp file appears, replaces it
// (rename-over) with a symlink to a file outside the mount, a hard link to an outside file, a FIFO or a
// directory. The promise: the write either lands exactly the new content in a regular file at the target, or
// fails; the outside file is never written. A failure changes nothing, except in the microseconds between the
// last check of the temp name and rename(2): an entry swapped in right then is moved in by the rename (no
// rename "only if still this inode" exists), and that is reported as io_error naming the other process, never
// as success. The attacker could have put that entry there itself; no content is written through it.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const kids: ChildProcess[] = [];
afterEach(() => {
  for (const k of kids.splice(0)) k.kill('SIGKILL');
});

function planter(dir: string, outside: string, mode: string) {
  const py = `
import os, sys, time
d=${JSON.stringify(dir)}; out=${JSON.stringify(outside)}; mode=${JSON.stringify(mode)}
n=0
parent=os.getppid()
# Ends with its test: when the test process is gone (even killed) or the directory is removed.
while os.getppid()==parent:
  try: names=os.listdir(d)
  except Exception: break
  for nm in names:
    if '.sandbox-approval-' in nm and nm.endswith('.tmp'):
      t=os.path.join(d,nm); p=os.path.join(d,'.plant'+str(n)); n+=1
      try:
        if mode=='symlink': os.symlink(out,p); os.rename(p,t)
        elif mode=='hardlink': os.link(out,p); os.rename(p,t)
        elif mode=='fifo': os.mkfifo(p); os.rename(p,t)
        elif mode=='dir':
          os.mkdir(p); os.unlink(t); os.rename(p,t)
      except Exception as e:
        pass
`;
  const c = spawn('python3', ['-c', py], { stdio: 'ignore' });
  kids.push(c);
  return c;
}

function lsTemps(dir: string) {
  return fs.readdirSync(dir).filter((n) => n.includes('.sandbox-approval-') && n.endsWith('.tmp'));
}

const SIZES = [10, 1048575, 1048576, 1048577, 3 * 1048576];

for (const mode of ['symlink', 'hardlink', 'fifo', 'dir']) {
  describe(`temp file swapped for a ${mode} by another process`, () => {
    it('write_file / edit_file / copy_file land the new bytes in a regular file or change nothing', async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-fdio-tmp-'));
      const dir = path.join(root, 'm');
      fs.mkdirSync(dir);
      const outside = path.join(root, 'secret.txt');
      const SECRET = 'SECRET outside the sandbox\n';
      fs.writeFileSync(outside, SECRET);
      const outIno = fs.statSync(outside).ino;
      const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
      planter(dir, outside, mode);
      await new Promise((r) => setTimeout(r, 200));
      const bad: string[] = [];
      let oks = 0;
      let fails = 0;
      let swaps = 0;
      const until = Date.now() + 12_000;
      try {
        for (let i = 0; i < 60 && Date.now() < until; i++) {
          const size = SIZES[i % SIZES.length]!;
          const tool = ['write_file', 'edit_file', 'copy_file'][Math.floor(i / SIZES.length) % 3]!;
          const target = path.join(dir, 't.txt');
          const old = `OLD${i}\n${'o'.repeat(size)}\n`;
          fs.writeFileSync(target, old);
          fs.chmodSync(target, 0o640);
          const neu = `NEW${i}\n${'n'.repeat(size)}\n`;
          let out: any;
          if (tool === 'write_file') out = await ts.callTool('write_file', { path: '/t.txt', content: neu });
          else if (tool === 'edit_file') {
            // replace the whole first line; the rest stays
            out = await ts.callTool('edit_file', {
              path: '/t.txt',
              old_string: `OLD${i}\n`,
              new_string: `NEW${i}\n`,
            });
          } else {
            fs.writeFileSync(path.join(dir, 'src.txt'), neu);
            out = await ts.callTool('copy_file', {
              source: '/src.txt',
              destination: '/t.txt',
              overwrite: true,
            });
          }
          const want = tool === 'edit_file' ? `NEW${i}\n${'o'.repeat(size)}\n` : neu;
          const st = fs.lstatSync(target);
          const tag = `#${i} ${tool} size=${size}`;
          if (fs.readFileSync(outside, 'utf8') !== SECRET) bad.push(`${tag}: outside file changed`);
          const reportedSwap =
            !out.ok &&
            out.error.code === 'io_error' &&
            /another process replaced the temporary file/i.test(out.error.message);
          if (out.ok && (st.ino === outIno || !st.isFile()))
            bad.push(`${tag}: ok, but the target is not the file written`);
          if (reportedSwap && !/nothing was written|now at that path/.test(out.error.message))
            bad.push(`${tag}: swap reported without saying what is at the path`);
          if (reportedSwap) {
            swaps++;
            if (
              /nothing was written/.test(out.error.message) &&
              (!st.isFile() || fs.readFileSync(target, 'utf8') !== old)
            )
              bad.push(`${tag}: "nothing was written" but the target changed`);
            if (
              st.isFile() &&
              st.ino !== outIno &&
              fs.readFileSync(target, 'utf8') === neu &&
              tool !== 'edit_file'
            )
              bad.push(`${tag}: reported failure but the new content landed`);
            if (!st.isFile() || st.ino === outIno) fs.rmSync(target, { recursive: true, force: true });
            continue;
          }
          if (st.ino === outIno) bad.push(`${tag}: target IS the outside file (hard link moved in)`);
          if (!st.isFile())
            bad.push(
              `${tag}: target is no longer a regular file (${st.isSymbolicLink() ? 'symlink -> ' + fs.readlinkSync(target) : st.isFIFO() ? 'fifo' : st.isDirectory() ? 'dir' : '?'}) ok=${out.ok}`,
            );
          else {
            const got = fs.readFileSync(target, 'utf8');
            if (out.ok) {
              oks++;
              if (got !== want && st.ino !== outIno)
                bad.push(`${tag}: ok but content differs (${JSON.stringify(got.slice(0, 30))})`);
              if (tool !== 'copy_file' && st.ino !== outIno && (st.mode & 0o777) !== 0o640)
                bad.push(`${tag}: mode ${(st.mode & 0o777).toString(8)}`);
            } else {
              fails++;
              if (got !== old) bad.push(`${tag}: failed (${out.error.code}) but target changed`);
              if (/\/tmp\/|rt-fdio/.test(out.error.message))
                bad.push(`${tag}: host path in message: ${out.error.message}`);
            }
          }
          // repair for the next round if the attacker left the target broken
          if (!st.isFile() || st.ino === outIno) fs.rmSync(target, { recursive: true, force: true });
        }
      } finally {
        for (const k of kids.splice(0)) k.kill('SIGKILL');
      }
      // planted leftovers are the attacker's; the library's own temp files must be gone
      const strays = lsTemps(dir).filter((n) => {
        const s = fs.lstatSync(path.join(dir, n));
        return s.isFile() && s.ino !== outIno;
      });
      fs.rmSync(root, { recursive: true, force: true });
      console.log(`${mode}: ok=${oks} failed=${fails} reported swaps=${swaps}`);
      expect(bad).toEqual([]);
      expect(strays).toEqual([]);
    }, 60_000);
  });
}
