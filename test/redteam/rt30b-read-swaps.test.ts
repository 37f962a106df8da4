// Red team (rt30b): on a readApproval mount, the file a person approved reading is swapped during the prompt.
// Promise: every tool that acts on it refuses with stale_approval, changes nothing, speaks virtual paths only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const PNG_A = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('public-image')]);
const PNG_S = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('SECRET-image')]);

function setup() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-read-')));
  fs.mkdirSync(path.join(root, 'd'));
  fs.writeFileSync(path.join(root, 'd/a.txt'), 'public\n');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'SECRET\n');
  fs.writeFileSync(path.join(root, 'd/a.png'), PNG_A);
  fs.writeFileSync(path.join(root, 'secret.png'), PNG_S);
  fs.mkdirSync(path.join(root, 'e'));
  fs.writeFileSync(path.join(root, 'e/a.txt'), 'SECRET\n');
  fs.writeFileSync(path.join(root, 'e/a.png'), PNG_S);
  return root;
}

type Swap = (root: string, name: string) => void;
const swaps: Array<[string, Swap]> = [
  [
    'content changed',
    (r, n) => fs.copyFileSync(path.join(r, `secret${path.extname(n)}`), path.join(r, 'd', n)),
  ],
  [
    'replaced by link to the secret',
    (r, n) => {
      fs.rmSync(path.join(r, 'd', n));
      fs.symlinkSync(`../secret${path.extname(n)}`, path.join(r, 'd', n));
    },
  ],
  [
    'parent dir replaced by link to a dir holding the secret',
    (r) => {
      fs.renameSync(path.join(r, 'd'), path.join(r, 'd.old'));
      fs.symlinkSync('e', path.join(r, 'd'));
    },
  ],
  ['removed', (r, n) => fs.rmSync(path.join(r, 'd', n))],
  [
    'replaced by a FIFO',
    (r, n) => {
      fs.rmSync(path.join(r, 'd', n));
      execFileSync('mkfifo', [path.join(r, 'd', n)]);
    },
  ],
  [
    'replaced by a directory',
    (r, n) => {
      fs.rmSync(path.join(r, 'd', n));
      fs.mkdirSync(path.join(r, 'd', n));
    },
  ],
  [
    'replaced by a binary file',
    (r, n) => {
      fs.rmSync(path.join(r, 'd', n));
      fs.writeFileSync(path.join(r, 'd', n), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff, 0xfe, 0]));
    },
  ],
  [
    'replaced by a too-large file',
    (r, n) => {
      fs.rmSync(path.join(r, 'd', n));
      fs.writeFileSync(path.join(r, 'd', n), 'x'.repeat(5000));
    },
  ],
  [
    'same bytes, new inode',
    (r, n) => {
      const b = fs.readFileSync(path.join(r, 'd', n));
      fs.writeFileSync(path.join(r, 'd', `${n}.t`), b);
      fs.renameSync(path.join(r, 'd', `${n}.t`), path.join(r, 'd', n));
    },
  ],
];

const calls: Array<[string, string, any]> = [
  ['read_file', 'a.txt', { path: '/d/a.txt' }],
  ['read_file hashes', 'a.txt', { path: '/d/a.txt', hashes: true }],
  ['read_media_file', 'a.png', { path: '/d/a.png' }],
  ['read_many_files', 'a.txt', { paths: ['/d/a.txt'] }],
];

describe('readApproval: file swapped during the prompt', () => {
  for (const [swapName, swap] of swaps) {
    for (const [label, name, args] of calls) {
      const tool = label.split(' ')[0]!;
      it(`${label}: ${swapName}`, async () => {
        const root = setup();
        const g = new ApprovalToolset(
          new FileSystemToolset(
            Sandbox.fromDirectory(root, { mode: 'rw', readApproval: true, maxFileBytes: 1000 }),
          ),
          {
            approve: () => {
              swap(root, name);
              return { approved: true };
            },
          },
        );
        const r: any = await Promise.race([
          g.callTool(tool, args, { toolCallId: 'c1' }),
          new Promise((res) => setTimeout(() => res({ hung: true }), 5000)),
        ]);
        const text = JSON.stringify(r);
        fs.rmSync(root, { recursive: true, force: true });
        expect(
          text.includes('SECRET') ||
            text.includes(Buffer.from('SECRET-image').toString('base64').slice(0, 8)),
          text.slice(0, 400),
        ).toBe(false);
        expect(text.includes(root), 'host path leaked').toBe(false);
        const code = r.ok
          ? tool === 'read_many_files'
            ? (r.data.files[0].error?.code ?? 'ok')
            : 'ok'
          : r.error?.code;
        expect(code, text.slice(0, 400)).toBe('stale_approval');
      });
    }
  }
});
