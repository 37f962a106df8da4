// rt66: list_files over a deep tree whose deepest paths are longer than the 4,096 bytes a virtual path may have.
//
// Promise 4: list_files stops at its cap and says it is truncated (a truncated listing is the start of the
// whole one; an untruncated one is the whole one).
// Input: a chain of 2,100 directories named `d` (`/d/d/…/d`, 4,200 bytes) with `leaf.txt` at the bottom and
// `mid.txt` at depth 1,000; listMaxEntries 10,000 (far above the 2,102 entries).
// Observed: `**/leaf.txt` gives count 0, truncated: false; `**/*` gives ~2,040 entries (the directories whose
// paths fit, and mid.txt) and nothing below, truncated: false — an existing file silently missing from a listing that says it
// is complete (nor does any error or note say that paths too long were left out).
// Fixed: the directory the walk could not read is named in `unreadable` (a listing without `truncated` and
// without `unreadable` is the whole one).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const DEPTH = 2_100;

const made: string[] = [];
// fs.rmSync itself overflows its stack on this tree (Node's recursion): rm -rf it.
afterEach(() => {
  for (const d of made.splice(0)) execFileSync('rm', ['-rf', d]);
});

function deepTree(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt66-deep-'));
  made.push(dir);
  // Built with relative mkdir/chdir in a child process: the absolute host path is past PATH_MAX.
  const script = `const fs = require('fs'); process.chdir(process.argv[1]);
for (let i = 1; i <= ${DEPTH}; i++) { fs.mkdirSync('d'); process.chdir('d'); if (i === 1000) fs.writeFileSync('mid.txt', 'm\\n'); }
fs.writeFileSync('leaf.txt', 'x\\n');`;
  execFileSync(process.execPath, ['-e', script, dir]);
  return dir;
}

describe('rt66: list_files and paths past 4,096 bytes', () => {
  it('FINDING: a file past 4,096 bytes of path is missing from `**/leaf.txt`, yet truncated is false', async () => {
    const dir = deepTree();
    const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
      limits: { listMaxEntries: 10_000 },
    });
    const mid: any = await ts.callTool('list_files', { path: '/', pattern: '**/mid.txt' });
    expect(mid.ok).toBe(true);
    expect(mid.data.count).toBe(1); // the shallow one is found
    const r: any = await ts.callTool('list_files', { path: '/', pattern: '**/leaf.txt' });
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r)).not.toContain(dir);
    // Either the file is listed, or the listing says it is not the whole one.
    const said = r.data.truncated === true || (r.data.unreadable?.length ?? 0) > 0;
    expect(
      r.data.count === 1 || said,
      JSON.stringify({ count: r.data.count, truncated: r.data.truncated }),
    ).toBe(true);
    // What it names is a directory on the way to the file, as a virtual path.
    if (r.data.count === 0) expect(r.data.unreadable[0]).toMatch(/^\/(d\/)+$/);
  }, 60_000);

  it('FINDING: `**/*` (cap 10,000) lists ~2,040 entries and stops, truncated false, leaf.txt absent', async () => {
    const dir = deepTree();
    const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
      limits: { listMaxEntries: 10_000 },
    });
    const r: any = await ts.callTool('list_files', { path: '/' });
    expect(r.ok).toBe(true);
    const complete =
      r.data.entries.some((e: string) => e.endsWith('/leaf.txt')) && r.data.count === DEPTH + 2;
    const said = r.data.truncated === true || (r.data.unreadable?.length ?? 0) > 0;
    expect(complete || said, JSON.stringify({ count: r.data.count, truncated: r.data.truncated })).toBe(true);
    expect(fs.existsSync(dir)).toBe(true);
  }, 60_000);
});
