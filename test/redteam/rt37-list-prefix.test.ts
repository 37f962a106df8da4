// rt37: list_files — a capped listing must be the first entries of the whole one, and `truncated`
// true exactly when entries were left out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
function mk(files: Record<string, string> = {}): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt37-lf-')));
  dirs.push(d);
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(d, rel);
    if (rel.endsWith('/')) {
      fs.mkdirSync(full, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  return d;
}

type Make = (limits: { listMaxEntries: number }) => FileSystemToolset | Promise<FileSystemToolset>;

async function list(ts: FileSystemToolset, args: Record<string, unknown>) {
  const out: any = await ts.callTool('list_files', args);
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.data as { entries: string[]; truncated: boolean; count: number };
}

/** Every cap from 1 to total+1 against the uncapped listing. */
async function checkPrefixes(make: Make, args: Record<string, unknown>) {
  const full = await list(await make({ listMaxEntries: 100_000 }), args);
  expect(full.truncated).toBe(false);
  expect(full.entries).toEqual([...full.entries].sort());
  expect(new Set(full.entries).size).toBe(full.entries.length);
  const problems: string[] = [];
  for (let cap = 1; cap <= full.entries.length + 1; cap++) {
    const some = await list(await make({ listMaxEntries: cap }), args);
    const want = full.entries.slice(0, cap);
    if (JSON.stringify(some.entries) !== JSON.stringify(want))
      problems.push(`cap ${cap}: got ${JSON.stringify(some.entries)} want ${JSON.stringify(want)}`);
    if (some.truncated !== cap < full.entries.length)
      problems.push(`cap ${cap}: truncated ${some.truncated} with ${full.entries.length} in all`);
    if (some.count !== some.entries.length) problems.push(`cap ${cap}: count ${some.count}`);
  }
  expect(problems).toEqual([]);
  return full.entries;
}

const NAMES = [
  'a',
  'a.b',
  'a-',
  'a~',
  'a b',
  'A',
  'B.txt',
  'a0',
  'é.txt',
  'e\u0301.txt',
  '😀.txt',
  'ｚ.txt',
  '~x',
  '-x',
  '.hidden',
  'z z/',
];

function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const n of NAMES) {
    if (n.endsWith('/')) files[`${n}inner.txt`] = 'x';
    else files[n] = 'x';
  }
  // "a" is a file above; make directories whose names are prefixes of siblings
  files['ab/x.txt'] = 'x';
  files['ab.c/y.txt'] = 'x';
  files['ab-/z.txt'] = 'x';
  files['ab/deep/deeper/q.txt'] = 'x';
  files['ab/deep.txt'] = 'x';
  files['ab/deep-/r.txt'] = 'x';
  return files;
}

describe('rt37: capped list_files is a prefix of the whole listing', () => {
  it('held: odd names, prefixes of each other, dirs and files', async () => {
    const dir = mk(tree());
    const make: Make = (limits) =>
      new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'ro' }), { limits });
    await checkPrefixes(make, {});
    await checkPrefixes(make, { pattern: '**/*.txt' });
    await checkPrefixes(make, { pattern: '**/deeper/*' });
    await checkPrefixes(make, { path: '/ab' });
    await checkPrefixes(make, { path: '/ab', pattern: 'deep*' });
  }, 30_000);

  it('held: nested mounts between siblings, mounts below mounts, a mount shadowing a host directory', async () => {
    const root = mk({ ...tree(), 'sh/host-only.txt': 'x', 'm/host.txt': 'x' });
    const m1 = mk({ 'one.txt': 'x', 'sub/two.txt': 'x' });
    const m2 = mk({ 'three.txt': 'x' });
    const m3 = mk({ 'shadow.txt': 'x' });
    const m4 = mk({ 'four.txt': 'x' });
    const make: Make = (limits) =>
      new FileSystemToolset(
        new Sandbox({
          mounts: [
            { hostPath: root, mountPoint: '/', mode: 'ro' },
            { hostPath: m1, mountPoint: '/a.a', mode: 'ro' },
            { hostPath: m2, mountPoint: '/a.a/sub/n', mode: 'ro' },
            { hostPath: m3, mountPoint: '/sh', mode: 'ro' },
            { hostPath: m4, mountPoint: '/ab/deep-/m', mode: 'ro' },
          ],
        }),
        { limits },
      );
    const all = await checkPrefixes(make, {});
    expect(all).toContain('/a.a/sub/n/three.txt');
    expect(all).toContain('/sh/shadow.txt');
    expect(all).not.toContain('/sh/host-only.txt');
    expect(all).toContain('/ab/deep-/m/four.txt');
    await checkPrefixes(make, { pattern: '**/*.txt' });
    await checkPrefixes(make, { path: '/a.a' });
  }, 30_000);

  it('held: mounts only (no mount at "/"), listed from "/"', async () => {
    const m1 = mk({ 'one.txt': 'x' });
    const m2 = mk({ 'two.txt': 'x' });
    const m3 = mk({ 'three.txt': 'x' });
    const make: Make = (limits) =>
      new FileSystemToolset(
        new Sandbox({
          mounts: [
            { hostPath: m1, mountPoint: '/x/a', mode: 'ro' },
            { hostPath: m2, mountPoint: '/x/a b', mode: 'ro' },
            { hostPath: m3, mountPoint: '/x.y', mode: 'ro' },
          ],
        }),
        { limits },
      );
    await checkPrefixes(make, {});
    await checkPrefixes(make, { path: '/x' });
  }, 30_000);

  it('held: derived sandboxes with read grants', async () => {
    const dir = mk(tree());
    const make: Make = (limits) =>
      new FileSystemToolset(
        Sandbox.fromDirectory(dir, { mode: 'rw' }).derive({ allowRead: ['/ab/deep', '/ab.c', '/a', '/z z'] }),
        { limits },
      );
    await checkPrefixes(make, {});
    await checkPrefixes(make, { pattern: '**/*.txt' });
  }, 30_000);

  it('held: symlinks inside, outside, dangling, to directories; temp files of atomic writes', async () => {
    const outside = mk({ 'secret.txt': 's' });
    const dir = mk({ 'f.txt': 'x', 'd/g.txt': 'x' });
    fs.symlinkSync('f.txt', path.join(dir, 'l-in'));
    fs.symlinkSync('d', path.join(dir, 'l-dir'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'l-out'));
    fs.symlinkSync('nope', path.join(dir, 'l-dangling'));
    fs.writeFileSync(path.join(dir, '.f.txt.sandbox-approval-123-0123456789ab.tmp'), 't');
    fs.writeFileSync(path.join(dir, 'd', '.g.txt.sandbox-approval-0123456789ab.tmp'), 't');
    const make: Make = (limits) =>
      new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'ro' }), { limits });
    const all = await checkPrefixes(make, {});
    expect(all).toEqual(['/d/', '/d/g.txt', '/f.txt', '/l-in']);
  }, 30_000);

  it('held: staging mode with staged creates, deletes and new directories', async () => {
    const dir = mk(tree());
    const make: Make = async (limits) => {
      const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }), {
        staging: true,
        limits,
      });
      const w = async (name: string, args: Record<string, unknown>) => {
        const r: any = await ts.callTool(name, args);
        if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
      };
      await w('write_file', { path: '/a/new.txt', content: 'n' }).catch(() => undefined); // "a" is a file
      await w('write_file', { path: '/a.a/new.txt', content: 'n' });
      await w('write_file', { path: '/ab/deep/new/n.txt', content: 'n' });
      await w('delete_file', { path: '/ab/x.txt' });
      await w('delete_file', { path: '/a.b' });
      await w('create_directory', { path: '/a-dir/' });
      await w('delete_file', { path: '/a~' });
      await w('write_file', { path: '/a~/x.txt', content: 'n' }).catch(() => undefined); // refused while staged-deleted
      await w('delete_file', { path: '/A' });
      await w('create_directory', { path: '/A' }).catch(() => undefined);
      await w('create_directory', { path: '/ab.c/empty' });
      await w('move_file', { source: '/B.txt', destination: '/ab-/B.txt' });
      return ts;
    };
    const all = await checkPrefixes(make, {});
    expect(all).toContain('/ab/deep/new/n.txt');
    expect(all).not.toContain('/ab/x.txt');
    await checkPrefixes(make, { pattern: '**/*.txt' });
  }, 30_000);
});
