// Red team (rt30b): the file a person approved is swapped between the prompt and the execution, for every tool
// that acts on it, on the source and destination side, in blocking mode (swap inside the callback) and native
// mode (swap between decidePending and executeApproved). Promise: stale_approval, nothing changed on disk,
// virtual paths only.

import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decidePending, executeApproved } from '../../src/approval/native-ledger.js';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const TXT = 'one\ntwo\nthree\n';
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

function setup() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-mx-')));
  fs.mkdirSync(path.join(root, 'd'));
  fs.mkdirSync(path.join(root, 'e'));
  fs.writeFileSync(path.join(root, 'd/a.txt'), TXT);
  fs.writeFileSync(path.join(root, 'd/b.txt'), TXT);
  fs.writeFileSync(path.join(root, 'e/a.txt'), TXT);
  fs.writeFileSync(path.join(root, 'other.txt'), 'other\n');
  return root;
}

/** Every entry with its kind, inode-free: what a person would see changed. */
function disk(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      const rel = path.relative(root, full);
      if (e.isSymbolicLink()) out[rel] = `link ${fs.readlinkSync(full)}`;
      else if (e.isDirectory()) {
        out[rel] = 'dir';
        walk(full);
      } else if (e.isFile()) out[rel] = `file ${fs.readFileSync(full, 'latin1')}`;
      else out[rel] = e.isFIFO() ? 'fifo' : e.isSocket() ? 'socket' : 'other';
    }
  };
  walk(root);
  return out;
}

const P = (r: string, rel: string) => path.join(r, rel);
const rmAt = (r: string, rel: string) => fs.rmSync(P(r, rel), { recursive: true, force: true });

type Swap = (r: string, rel: string) => void;
const existingSwaps: Array<[string, Swap]> = [
  ['removed', (r, t) => rmAt(r, t)],
  [
    'FIFO',
    (r, t) => {
      rmAt(r, t);
      execFileSync('mkfifo', [P(r, t)]);
    },
  ],
  [
    'socket',
    (r, t) => {
      rmAt(r, t);
      execFileSync('python3', [
        '-c',
        'import socket,sys;s=socket.socket(socket.AF_UNIX);s.bind(sys.argv[1])',
        P(r, t),
      ]);
    },
  ],
  [
    'directory',
    (r, t) => {
      rmAt(r, t);
      fs.mkdirSync(P(r, t));
    },
  ],
  [
    'link to a dir',
    (r, t) => {
      rmAt(r, t);
      fs.symlinkSync(P(r, 'e'), P(r, t));
    },
  ],
  [
    'dangling link',
    (r, t) => {
      rmAt(r, t);
      fs.symlinkSync('nowhere.txt', P(r, t));
    },
  ],
  [
    'link to an equal file',
    (r, t) => {
      rmAt(r, t);
      fs.symlinkSync('b.txt', P(r, t));
    },
  ],
  [
    'binary file',
    (r, t) => {
      rmAt(r, t);
      fs.writeFileSync(P(r, t), 'one\ntwo\0three\n');
    },
  ],
  [
    'too large file',
    (r, t) => {
      rmAt(r, t);
      fs.writeFileSync(P(r, t), `${'x'.repeat(5000)}\n`);
    },
  ],
  [
    'same bytes new inode',
    (r, t) => {
      fs.writeFileSync(P(r, `${t}.n`), fs.readFileSync(P(r, t)));
      fs.renameSync(P(r, `${t}.n`), P(r, t));
    },
  ],
  [
    'hard link to an equal file',
    (r, t) => {
      rmAt(r, t);
      fs.linkSync(P(r, 'd/b.txt'), P(r, t));
    },
  ],
  [
    'parent dir swapped for an equal copy',
    (r) => {
      fs.renameSync(P(r, 'd'), P(r, 'd.old'));
      fs.cpSync(P(r, 'd.old'), P(r, 'd'), { recursive: true });
    },
  ],
  [
    'parent dir replaced by a link to an equal dir',
    (r) => {
      fs.renameSync(P(r, 'd'), P(r, 'd.old'));
      fs.cpSync(P(r, 'd.old'), P(r, 'e2'), { recursive: true });
      fs.symlinkSync('e2', P(r, 'd'));
    },
  ],
];
const OUTSIDE = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-outside-')));
fs.writeFileSync(path.join(OUTSIDE, 'a.txt'), TXT);
fs.writeFileSync(path.join(OUTSIDE, 'new.txt'), TXT);
existingSwaps.push(
  [
    'link to a file outside the sandbox',
    (r, t) => {
      rmAt(r, t);
      fs.symlinkSync(path.join(OUTSIDE, 'a.txt'), P(r, t));
    },
  ],
  [
    'parent dir replaced by a link outside the sandbox',
    (r) => {
      fs.renameSync(P(r, 'd'), P(r, 'd.old'));
      fs.symlinkSync(OUTSIDE, P(r, 'd'));
    },
  ],
);
afterAll(() => fs.rmSync(OUTSIDE, { recursive: true, force: true }));
const createSwaps: Array<[string, Swap]> = [
  ['a file appears', (r, t) => fs.writeFileSync(P(r, t), 'x\n')],
  ['a FIFO appears', (r, t) => execFileSync('mkfifo', [P(r, t)])],
  ['a directory appears', (r, t) => fs.mkdirSync(P(r, t))],
  ['a link to a file appears', (r, t) => fs.symlinkSync('b.txt', P(r, t))],
  ['a dangling link appears', (r, t) => fs.symlinkSync('elsewhere.txt', P(r, t))],
  ['parent dir swapped for an equal copy', existingSwaps.at(-4)![1]],
  ['parent dir replaced by a link to an equal dir', existingSwaps.at(-3)![1]],
  ['parent dir replaced by a link outside the sandbox', existingSwaps.at(-1)![1]],
  ['a link outside appears', (r, t) => fs.symlinkSync(path.join(OUTSIDE, 'zz.txt'), P(r, t))],
];

const DIFF = '--- a/d/a.txt\n+++ b/d/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n';
const onExisting: Array<[string, string, any]> = [
  ['write_file', 'write_file', { path: '/d/a.txt', content: 'new\n' }],
  ['edit_file', 'edit_file', { path: '/d/a.txt', old_string: 'two', new_string: 'TWO' }],
  ['patch_file', 'patch_file', { path: '/d/a.txt', unified_diff: DIFF, base_sha256: sha(TXT) }],
  ['edit_lines', 'edit_lines', 'lines'],
  ['delete_file', 'delete_file', { path: '/d/a.txt' }],
  ['copy_file source', 'copy_file', { source: '/d/a.txt', destination: '/n.txt' }],
  ['copy_file destination', 'copy_file', { source: '/other.txt', destination: '/d/a.txt', overwrite: true }],
  ['move_file source', 'move_file', { source: '/d/a.txt', destination: '/n.txt' }],
  ['move_file destination', 'move_file', { source: '/other.txt', destination: '/d/a.txt', overwrite: true }],
];
const onNew: Array<[string, string, any]> = [
  ['write_file create', 'write_file', { path: '/d/new.txt', content: 'new\n' }],
  ['copy_file create', 'copy_file', { source: '/other.txt', destination: '/d/new.txt' }],
  ['move_file create', 'move_file', { source: '/other.txt', destination: '/d/new.txt' }],
  ['create_directory', 'create_directory', { path: '/d/new.txt' }],
];

async function attempt(mode: 'blocking' | 'native', tool: string, argsSpec: any, target: string, swap: Swap) {
  const root = setup();
  const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', maxFileBytes: 1000 }));
  let args = argsSpec;
  if (argsSpec === 'lines') {
    const r: any = await ts.callTool('read_file', { path: '/d/a.txt', hashes: true });
    const anchor = r.data.content.split('\n')[1].split('|')[0];
    args = { path: '/d/a.txt', operations: [{ op: 'replace_line', hash: anchor, content: 'TWO' }] };
  }
  let after: Record<string, string> = {};
  let asked = 0;
  let outcome: any;
  if (mode === 'blocking') {
    const g = new ApprovalToolset(ts, {
      approve: () => {
        asked++;
        swap(root, target);
        after = disk(root);
        return { approved: true };
      },
    });
    outcome = await g.callTool(tool, args, { toolCallId: 'c1' });
  } else {
    const d = await decidePending(
      ts,
      () => {
        asked++;
        return { approved: true };
      },
      { toolName: tool, toolCallId: 'c1', input: args },
    );
    expect(d.approved).toBe(true);
    swap(root, target);
    after = disk(root);
    outcome = await executeApproved(ts, tool, args, 'c1');
  }
  const now = disk(root);
  fs.rmSync(root, { recursive: true, force: true });
  return { outcome, after, now, asked, root };
}

for (const mode of ['blocking', 'native'] as const) {
  describe(`${mode}: approved file swapped before it runs`, () => {
    for (const [label, tool, args] of onExisting)
      for (const [sname, swap] of existingSwaps)
        it(`${label}: ${sname}`, async () => {
          const r = await attempt(mode, tool, args, 'd/a.txt', swap);
          const text = JSON.stringify(r.outcome);
          expect(r.asked).toBe(1);
          expect(
            text.includes(r.root) || text.includes(OUTSIDE) || text.includes(os.tmpdir()),
            `host path in ${text}`,
          ).toBe(false);
          expect(fs.readFileSync(path.join(OUTSIDE, 'a.txt'), 'utf8')).toBe(TXT);
          expect(fs.readdirSync(OUTSIDE).sort()).toEqual(['a.txt', 'new.txt']);
          expect(r.now, `disk changed; outcome ${text.slice(0, 200)}`).toEqual(r.after);
          const code = r.outcome.ok ? 'ok' : r.outcome.error.code;
          // A swap that now leads outside may be refused as such.
          expect(
            sname.includes('outside') && code === 'path_not_in_sandbox' ? 'stale_approval' : code,
            text.slice(0, 300),
          ).toBe('stale_approval');
        });
    for (const [label, tool, args] of onNew)
      for (const [sname, swap] of createSwaps)
        it(`${label}: ${sname}`, async () => {
          const r = await attempt(mode, tool, args, 'd/new.txt', swap);
          const text = JSON.stringify(r.outcome);
          expect(r.asked).toBe(1);
          expect(
            text.includes(r.root) || text.includes(OUTSIDE) || text.includes(os.tmpdir()),
            `host path in ${text}`,
          ).toBe(false);
          expect(fs.readFileSync(path.join(OUTSIDE, 'a.txt'), 'utf8')).toBe(TXT);
          expect(fs.readdirSync(OUTSIDE).sort()).toEqual(['a.txt', 'new.txt']);
          expect(r.now, `disk changed; outcome ${text.slice(0, 200)}`).toEqual(r.after);
          const code = r.outcome.ok ? 'ok' : r.outcome.error.code;
          // A swap that now leads outside may be refused as such.
          expect(
            sname.includes('outside') && code === 'path_not_in_sandbox' ? 'stale_approval' : code,
            text.slice(0, 300),
          ).toBe('stale_approval');
        });
  });
}
