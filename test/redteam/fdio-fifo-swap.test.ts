// During the approval prompt the file (or copy/move source, or destination) is replaced by a FIFO, a socket
// or a directory: the call must end promptly (never block opening a FIFO) with stale_approval and change
// nothing; sizes on both sides of 1 MiB.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const MiB = 1048576;
const cases: [string, (d: string) => any, string][] = [
  ['write_file', () => ({ path: '/t.txt', content: 'new\n' }), 't.txt'],
  ['edit_file', () => ({ path: '/t.txt', old_string: 'HEAD', new_string: 'DONE' }), 't.txt'],
  ['edit_lines', () => null, 't.txt'],
  ['delete_file', () => ({ path: '/t.txt' }), 't.txt'],
  ['copy_file', () => ({ source: '/t.txt', destination: '/c.txt' }), 't.txt'],
  ['move_file', () => ({ source: '/t.txt', destination: '/c.txt' }), 't.txt'],
  ['copy_file', () => ({ source: '/s.txt', destination: '/t.txt', overwrite: true }), 't.txt'],
];

for (const size of [5, MiB + 3]) {
  for (const kind of ['fifo', 'dir', 'socket']) {
    describe(`replaced by a ${kind} during the prompt, ${size} bytes`, () => {
      for (const [tool, argsOf, victim] of cases) {
        it(`${tool} ${JSON.stringify(argsOf('')) ?? 'lines'}`, async () => {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-fdio-ff-'));
          const body = `HEAD\n${'b'.repeat(size)}\n`;
          fs.writeFileSync(path.join(dir, 't.txt'), body);
          fs.writeFileSync(path.join(dir, 's.txt'), body);
          const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
            limits: { readMaxChars: 10 * MiB, readMaxLines: 1_000_000 },
          });
          const g = new ApprovalToolset(ts, {
            approve: () => {
              const v = path.join(dir, victim);
              fs.rmSync(v, { force: true });
              if (kind === 'fifo') execFileSync('mkfifo', [v]);
              else if (kind === 'dir') fs.mkdirSync(v);
              else
                execFileSync('python3', [
                  '-c',
                  `import socket;s=socket.socket(socket.AF_UNIX);s.bind(${JSON.stringify(v)})`,
                ]);
              return { approved: true };
            },
          });
          let args = argsOf(dir);
          if (!args) {
            const r: any = await g.callTool('read_file', { path: '/t.txt', hashes: true, head: 1 });
            args = {
              path: '/t.txt',
              operations: [{ op: 'replace_line', hash: r.data.content.split('|')[0], content: 'DONE' }],
            };
          }
          const out: any = await Promise.race([
            g.callTool(tool, args),
            new Promise((r) => setTimeout(() => r({ ok: false, error: { code: 'HUNG' } }), 8000)),
          ]);
          const st = fs.lstatSync(path.join(dir, victim));
          const others = fs.readdirSync(dir).sort();
          fs.rmSync(dir, { recursive: true, force: true });
          expect(['stale_approval', 'not_a_file']).toContain(out.ok ? 'ok' : out.error.code);
          expect(kind === 'fifo' ? st.isFIFO() : kind === 'dir' ? st.isDirectory() : st.isSocket()).toBe(
            true,
          );
          expect(others.filter((n) => n.includes('sandbox-approval') || n === 'c.txt')).toEqual([]);
        }, 20_000);
      }
    });
  }
}
