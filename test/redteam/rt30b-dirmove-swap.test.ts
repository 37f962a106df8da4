// Red team (rt30b): move_file of a directory, the directory swapped between prompt and execution for one with
// the same names, types, sizes and times (the tree hash shown), or the destination's parent swapped.
// Promise: stale_approval, nothing changed on disk.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decidePending, executeApproved } from '../../src/approval/native-ledger.js';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(d, e.name);
      out.push(
        `${path.relative(root, full)}${e.isDirectory() ? '/' : e.isSymbolicLink() ? ` -> ${fs.readlinkSync(full)}` : ` ${fs.readFileSync(full, 'utf8')}`}`,
      );
      if (e.isDirectory() && !e.isSymbolicLink()) walk(full);
    }
  };
  walk(root);
  return out;
}

function setup() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-dm-')));
  fs.mkdirSync(path.join(root, 'src/d'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src/d/x.txt'), 'public\n');
  fs.mkdirSync(path.join(root, 'out'));
  fs.mkdirSync(path.join(root, 'other'));
  return root;
}
const P = (r: string, s: string) => path.join(r, s);

/** An equal-looking copy: same names, sizes, modes and times, other inodes and other bytes. */
function lookalike(from: string, to: string) {
  fs.cpSync(from, to, { recursive: true, preserveTimestamps: true });
  for (const f of fs.readdirSync(to)) {
    const full = path.join(to, f);
    const st = fs.statSync(full);
    if (st.isFile()) {
      fs.writeFileSync(full, 'SECRET\n'.slice(0, st.size).padEnd(st.size, '!'));
      fs.utimesSync(full, st.atime, st.mtime);
    }
  }
  const st = fs.statSync(from);
  fs.utimesSync(to, st.atime, st.mtime);
}

const swaps: Array<[string, (r: string) => void]> = [
  [
    'source dir replaced by a look-alike (same names/sizes/times)',
    (r) => {
      fs.renameSync(P(r, 'src/d'), P(r, 'old-d'));
      lookalike(P(r, 'old-d'), P(r, 'src/d'));
      fs.utimesSync(P(r, 'src'), new Date(0), new Date(0));
    },
  ],
  [
    'source dir replaced by a link to a look-alike',
    (r) => {
      fs.renameSync(P(r, 'src/d'), P(r, 'old-d'));
      lookalike(P(r, 'old-d'), P(r, 'other/d'));
      fs.symlinkSync('../other/d', P(r, 'src/d'));
    },
  ],
  [
    'source parent replaced by a link to a look-alike',
    (r) => {
      fs.renameSync(P(r, 'src'), P(r, 'old-src'));
      fs.mkdirSync(P(r, 'other/src'));
      lookalike(P(r, 'old-src/d'), P(r, 'other/src/d'));
      fs.symlinkSync('other/src', P(r, 'src'));
    },
  ],
  [
    'destination parent replaced by a link to another dir',
    (r) => {
      fs.rmdirSync(P(r, 'out'));
      fs.symlinkSync('other', P(r, 'out'));
    },
  ],
  ['source dir removed', (r) => fs.rmSync(P(r, 'src/d'), { recursive: true })],
  ['destination appears as a dir', (r) => fs.mkdirSync(P(r, 'out/d'))],
];

for (const mode of ['blocking', 'native'] as const)
  describe(`${mode}: directory move, swapped before it runs`, () => {
    for (const [name, swap] of swaps)
      it(name, async () => {
        const root = setup();
        const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }));
        const args = { source: '/src/d', destination: '/out/d' };
        let after: string[] = [];
        let outcome: any;
        if (mode === 'blocking') {
          const g = new ApprovalToolset(ts, {
            approve: () => {
              swap(root);
              after = tree(root);
              return { approved: true };
            },
          });
          outcome = await g.callTool('move_file', args, { toolCallId: 'c1' });
        } else {
          const d = await decidePending(ts, () => ({ approved: true }), {
            toolName: 'move_file',
            toolCallId: 'c1',
            input: args,
          });
          expect(d.approved).toBe(true);
          swap(root);
          after = tree(root);
          outcome = await executeApproved(ts, 'move_file', args, 'c1');
        }
        const now = tree(root);
        fs.rmSync(root, { recursive: true, force: true });
        const text = JSON.stringify(outcome);
        expect(text.includes(root)).toBe(false);
        expect(now, text).toEqual(after);
        expect(outcome.ok ? 'ok' : outcome.error.code, text).toBe('stale_approval');
      });
  });
