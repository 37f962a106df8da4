// Red team (rt30b): the approved file (or its directory) is made immutable (chattr +i, as root) during the
// prompt, so the write fails at the last step. Promise: nothing changes on disk (no temp file left behind,
// no half-applied move/copy), and the error speaks virtual paths only.

import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const TXT = 'one\ntwo\nthree\n';
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
let chattr = true;
try {
  execFileSync('chattr', ['--help'], { stdio: 'ignore' });
} catch (e: any) {
  chattr = e.status !== 127 && process.getuid?.() === 0;
}
chattr = chattr && process.getuid?.() === 0;

function listing(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      out.push(`${path.relative(root, full)}${e.isFile() ? ` ${fs.readFileSync(full, 'utf8')}` : ''}`);
      if (e.isDirectory()) walk(full);
    }
  };
  walk(root);
  return out.sort();
}

const calls: Array<[string, string, any]> = [
  ['write_file', 'write_file', { path: '/d/a.txt', content: 'new\n' }],
  ['edit_file', 'edit_file', { path: '/d/a.txt', old_string: 'two', new_string: 'TWO' }],
  [
    'patch_file',
    'patch_file',
    {
      path: '/d/a.txt',
      base_sha256: sha(TXT),
      unified_diff: '--- a\n+++ b\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
    },
  ],
  ['delete_file', 'delete_file', { path: '/d/a.txt' }],
  ['move_file', 'move_file', { source: '/d/a.txt', destination: '/e/n.txt' }],
  // Over an existing file: the destination must keep what it held.
  ['move_file over', 'move_file', { source: '/d/a.txt', destination: '/e/b.txt', overwrite: true }],
  ['move_file into', 'move_file', { source: '/e/b.txt', destination: '/d/a.txt', overwrite: true }],
  ['copy_file into', 'copy_file', { source: '/e/b.txt', destination: '/d/a.txt', overwrite: true }],
  ['write_file create', 'write_file', { path: '/d/new.txt', content: 'x\n' }],
  ['create_directory', 'create_directory', { path: '/d/sub/deeper' }],
  ['move_file dir', 'move_file', { source: '/d', destination: '/e/d2' }],
];

describe.skipIf(!chattr)('immutable at the last moment', () => {
  for (const what of ['file', 'dir'] as const)
    for (const [label, tool, args] of calls)
      it(`${label}: ${what} made immutable during the prompt`, async () => {
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-im-')));
        fs.mkdirSync(path.join(root, 'd'));
        fs.mkdirSync(path.join(root, 'e'));
        fs.writeFileSync(path.join(root, 'd/a.txt'), TXT);
        fs.writeFileSync(path.join(root, 'e/b.txt'), 'bee\n');
        const target = what === 'file' ? path.join(root, 'd/a.txt') : path.join(root, 'd');
        let after: string[] = [];
        const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
          approve: () => {
            execFileSync('chattr', ['+i', target]);
            after = listing(root);
            return { approved: true };
          },
        });
        let r: any;
        try {
          r = await g.callTool(tool, args, { toolCallId: 'c1' });
        } finally {
          execFileSync('chattr', ['-R', '-i', root]);
        }
        const now = listing(root);
        fs.rmSync(root, { recursive: true, force: true });
        const text = JSON.stringify(r);
        expect(text.includes(root) || text.includes(os.tmpdir()), text).toBe(false);
        // A call that still succeeded did what was approved; a call that failed must have changed nothing.
        if (after.length && !r.ok) expect(now, text.slice(0, 300)).toEqual(after);
      });
});
