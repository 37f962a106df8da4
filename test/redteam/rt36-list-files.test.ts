// rt36: list_files on big and deep trees.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) execSync(`rm -rf ${JSON.stringify(d)}`); // fs.rmSync overflows the stack on 2,000 levels
});
const mk = () => {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt36-lf-')));
  dirs.push(d);
  return d;
};

describe('rt36: list_files', () => {
  // The tool tells the model: "Results are sorted virtual paths (directories end with "/"), capped; `truncated`
  // says when there were more". A capped sorted list reads as the first N names: a model seeing
  // f0292 … f2454 with truncated: true takes f0000–f0291 for absent. The entries are in fact the first N
  // *visited* (directory order), then sorted: an arbitrary sample, not a prefix of the listing.
  it('a truncated listing is the first listMaxEntries entries of the full sorted listing', async () => {
    const dir = mk();
    for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(dir, `f${String(i).padStart(4, '0')}.txt`), '');
    fs.mkdirSync(path.join(dir, 'a'));
    fs.writeFileSync(path.join(dir, 'a', 'x.txt'), '');
    const full = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'ro' }), {
      limits: { listMaxEntries: 5000 },
    });
    const all: any = await full.callTool('list_files', { path: '/' });
    expect(all.data.truncated).toBe(false);
    const capped = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'ro' }), {
      limits: { listMaxEntries: 10 },
    });
    const some: any = await capped.callTool('list_files', { path: '/' });
    expect(some.data.truncated).toBe(true);
    expect(some.data.entries).toHaveLength(10);
    expect(some.data.entries).toEqual(all.data.entries.slice(0, 10));
  }, 60_000);

  it('held: a 2,000-level tree: found by **, paths over 4,096 bytes and 256-byte names refused, nothing created', async () => {
    const dir = mk();
    const cwd = process.cwd();
    fs.mkdirSync(path.join(dir, 'deep'));
    process.chdir(path.join(dir, 'deep'));
    try {
      for (let i = 0; i < 2000; i++) {
        fs.mkdirSync('d');
        process.chdir('d');
      }
      fs.writeFileSync('b.txt', 'bottom\n');
    } finally {
      process.chdir(cwd);
    }
    const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
    const deepFile = `/deep/${Array(2000).fill('d').join('/')}/b.txt`;
    const l: any = await ts.callTool('list_files', { path: '/deep', pattern: '**/b.txt' });
    expect(l.ok).toBe(true);
    expect(l.data.entries).toEqual([deepFile]);
    const r: any = await ts.callTool('read_file', { path: deepFile });
    expect(r.data.content).toBe('bottom');
    const e: any = await ts.callTool('edit_file', {
      path: deepFile,
      old_string: 'bottom',
      new_string: 'BOTTOM',
    });
    expect(e.ok).toBe(true);
    const tooLong: any = await ts.callTool('create_directory', {
      path: `/new/${Array(3000).fill('e').join('/')}`,
    });
    expect(tooLong.error.code).toBe('invalid_argument');
    const longName: any = await ts.callTool('write_file', { path: `/${'n'.repeat(252)}.txt`, content: 'x' });
    expect(longName.error.code).toBe('invalid_argument');
    expect(fs.existsSync(path.join(dir, 'new'))).toBe(false);
    expect(fs.readdirSync(dir).sort()).toEqual(['deep']);
  }, 60_000);
});
