// Red team (rt30b): review (staging) mode. Changes are staged, then the files are swapped while the person
// reviews; the accepted set is applied. Promise: stale_approval, nothing changed on disk, virtual paths only.

import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideAll, FileSystemToolset, Sandbox } from '../../src/index.js';

const TXT = 'one\ntwo\nthree\n';
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const P = (r: string, rel: string) => path.join(r, rel);
const rmAt = (r: string, rel: string) => fs.rmSync(P(r, rel), { recursive: true, force: true });

function setup() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-st-')));
  fs.mkdirSync(P(root, 'd'));
  fs.mkdirSync(P(root, 'e'));
  fs.writeFileSync(P(root, 'd/a.txt'), TXT);
  fs.writeFileSync(P(root, 'd/b.txt'), TXT);
  fs.writeFileSync(P(root, 'e/a.txt'), TXT);
  fs.writeFileSync(P(root, 'other.txt'), 'other\n');
  return root;
}
function disk(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      const rel = path.relative(root, full);
      if (rel.startsWith('.sandbox-approval')) continue;
      if (e.isSymbolicLink()) out[rel] = `link ${fs.readlinkSync(full)}`;
      else if (e.isDirectory()) {
        out[rel] = 'dir';
        walk(full);
      } else if (e.isFile()) out[rel] = `file ${fs.readFileSync(full, 'latin1')}`;
      else out[rel] = 'special';
    }
  };
  walk(root);
  return out;
}

type Swap = (r: string, t: string) => void;
const swapsExisting: Array<[string, Swap]> = [
  ['removed', (r, t) => rmAt(r, t)],
  [
    'FIFO',
    (r, t) => {
      rmAt(r, t);
      execFileSync('mkfifo', [P(r, t)]);
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
    'link to an equal file',
    (r, t) => {
      rmAt(r, t);
      fs.symlinkSync('b.txt', P(r, t));
    },
  ],
  [
    'dangling link',
    (r, t) => {
      rmAt(r, t);
      fs.symlinkSync('zz.txt', P(r, t));
    },
  ],
  [
    'same bytes new inode',
    (r, t) => {
      fs.writeFileSync(P(r, `${t}.n`), TXT);
      fs.renameSync(P(r, `${t}.n`), P(r, t));
    },
  ],
  [
    'binary',
    (r, t) => {
      rmAt(r, t);
      fs.writeFileSync(P(r, t), 'on\0\ntwo\nthree\n');
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
const swapsNew: Array<[string, Swap]> = [
  ['a file appears', (r, t) => fs.writeFileSync(P(r, t), 'x\n')],
  ['a FIFO appears', (r, t) => execFileSync('mkfifo', [P(r, t)])],
  ['a directory appears', (r, t) => fs.mkdirSync(P(r, t))],
  ['a link appears', (r, t) => fs.symlinkSync('b.txt', P(r, t))],
  ['parent dir swapped for an equal copy', swapsExisting.at(-2)![1]],
  ['parent dir replaced by a link to an equal dir', swapsExisting.at(-1)![1]],
];

const stageExisting: Array<[string, string, any]> = [
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
  ['move_file source', 'move_file', { source: '/d/a.txt', destination: '/n.txt' }],
  ['copy_file destination', 'copy_file', { source: '/other.txt', destination: '/d/a.txt', overwrite: true }],
  ['move_file destination', 'move_file', { source: '/other.txt', destination: '/d/a.txt', overwrite: true }],
];
const stageNew: Array<[string, string, any]> = [
  ['write_file create', 'write_file', { path: '/d/new.txt', content: 'new\n' }],
  ['copy_file create', 'copy_file', { source: '/other.txt', destination: '/d/new.txt' }],
  ['create_directory', 'create_directory', { path: '/d/new.txt' }],
];

async function attempt(tool: string, args: any, target: string, swap: Swap) {
  const root = setup();
  const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }), { staging: true });
  const staged: any = await ts.callTool(tool, args);
  expect(staged.ok, JSON.stringify(staged)).toBe(true);
  const staging = ts.stage();
  let after: Record<string, string> = {};
  let result: any;
  try {
    result = await staging.review(async (set) => {
      swap(root, target);
      after = disk(root);
      return decideAll(set, 'accept');
    });
  } catch (e) {
    result = { thrown: String(e) };
  }
  const now = disk(root);
  fs.rmSync(root, { recursive: true, force: true });
  return { result, after, now, root };
}

describe('staging: swapped during review', () => {
  for (const [label, tool, args] of stageExisting)
    for (const [sname, swap] of swapsExisting)
      it(`${label}: ${sname}`, async () => {
        const r = await attempt(tool, args, 'd/a.txt', swap);
        const text = JSON.stringify(r.result);
        expect(text.includes(r.root), 'host path').toBe(false);
        expect(r.now, text.slice(0, 300)).toEqual(r.after);
        expect(r.result.ok, text.slice(0, 300)).toBe(false);
        expect(r.result.error?.code, text.slice(0, 300)).toBe('stale_approval');
      });
  for (const [label, tool, args] of stageNew)
    for (const [sname, swap] of swapsNew)
      it(`${label}: ${sname}`, async () => {
        const r = await attempt(tool, args, 'd/new.txt', swap);
        const text = JSON.stringify(r.result);
        expect(text.includes(r.root), 'host path').toBe(false);
        expect(r.now, text.slice(0, 300)).toEqual(r.after);
        expect(r.result.ok, text.slice(0, 300)).toBe(false);
        expect(r.result.error?.code, text.slice(0, 300)).toBe('stale_approval');
      });
});

describe('staging: what is rejected never runs', () => {
  for (const action of ['reject', 'none'] as const)
    it(`create_directory staged, the reviewer ${action === 'reject' ? 'rejects everything' : 'names nothing'}: no directory is created`, async () => {
      const root = setup();
      const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }), { staging: true });
      expect(((await ts.callTool('create_directory', { path: '/d/new/deeper' })) as any).ok).toBe(true);
      await ts.callTool('write_file', { path: '/d/a.txt', content: 'staged\n' });
      const before = disk(root);
      const r: any = await ts
        .stage()
        .review(async (set) =>
          action === 'reject' ? decideAll(set, 'reject', 'no') : { changeSetId: set.id, files: {} },
        );
      const now = disk(root);
      fs.rmSync(root, { recursive: true, force: true });
      expect(now, JSON.stringify(r).slice(0, 300)).toEqual(before);
    });
});

describe('staging: a travelled change set', () => {
  it('directories added to a set held by a client are refused (not covered by the set id)', async () => {
    const { applyChangeSet } = await import('../../src/index.js');
    const root = setup();
    const sandbox = Sandbox.fromDirectory(root, { mode: 'rw' });
    const ts = new FileSystemToolset(sandbox, { staging: true });
    await ts.callTool('write_file', { path: '/d/a.txt', content: 'staged\n' });
    const set = JSON.parse(JSON.stringify(ts.stage().changeSet()));
    const forged = { ...set, directories: [...set.directories, '/planted/by/client'] };
    const r: any = await (applyChangeSet as any)(sandbox, forged, decideAll(set, 'reject', 'no'));
    const planted = fs.existsSync(P(root, 'planted'));
    fs.rmSync(root, { recursive: true, force: true });
    expect(planted, JSON.stringify(r).slice(0, 300)).toBe(false);
  });
});
