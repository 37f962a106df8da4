// rt38: list_files — nested mounts below directories the mount above lacks, derived sandboxes, caps, approval.
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
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt38-lm-')));
  dirs.push(d);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
    fs.writeFileSync(path.join(d, rel), content);
  }
  return d;
}
async function list(ts: FileSystemToolset, p: string, pattern?: string): Promise<any> {
  const out: any = await ts.callTool('list_files', pattern ? { path: p, pattern } : { path: p });
  return out.ok ? out.data : { error: out.error.code, message: out.error.message };
}

describe('rt38: several mounts sharing a missing parent', () => {
  function setup(limits: Record<string, number> = {}) {
    const root = mk({ 'x.txt': 'x', 'p.txt': 'p' });
    const r = mk({ 'r1.txt': '1' });
    const s = mk({ 's1.txt': '1' });
    const u = mk({ 'u1.txt': '1' });
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: root, mountPoint: '/', mode: 'ro' },
        { hostPath: r, mountPoint: '/q/r', mode: 'ro' },
        { hostPath: s, mountPoint: '/q/s', mode: 'ro' },
        { hostPath: u, mountPoint: '/q/t/u', mode: 'ro' },
      ],
    });
    return new FileSystemToolset(sandbox, { limits });
  }
  const full = [
    '/p.txt',
    '/q/',
    '/q/r/',
    '/q/r/r1.txt',
    '/q/s/',
    '/q/s/s1.txt',
    '/q/t/',
    '/q/t/u/',
    '/q/t/u/u1.txt',
    '/x.txt',
  ];

  it('"/" lists all of them once, sorted', async () => {
    expect((await list(setup(), '/')).entries).toEqual(full);
  });
  it('"/q" and "/q/t" list', async () => {
    expect((await list(setup(), '/q')).entries).toEqual(
      full.filter((e) => e.startsWith('/q/') && e !== '/q/'),
    );
    expect((await list(setup(), '/q/t')).entries).toEqual(['/q/t/u/', '/q/t/u/u1.txt']);
    expect((await list(setup(), '/q/r')).entries).toEqual(['/q/r/r1.txt']);
  });
  it('every cap gives the first entries of the full listing', async () => {
    for (let cap = 1; cap <= full.length; cap++) {
      const out = await list(setup({ listMaxEntries: cap }), '/');
      expect(out.entries, `cap ${cap}`).toEqual(full.slice(0, cap));
      expect(out.truncated, `cap ${cap}`).toBe(cap < full.length);
    }
  });
  it('patterns matching only inside the mounts', async () => {
    expect((await list(setup(), '/', 'q/**/*.txt')).entries).toEqual([
      '/q/r/r1.txt',
      '/q/s/s1.txt',
      '/q/t/u/u1.txt',
    ]);
    expect((await list(setup(), '/', '**/u1.txt')).entries).toEqual(['/q/t/u/u1.txt']);
    expect((await list(setup(), '/q', 't/*')).entries).toEqual(['/q/t/u/']);
  });
  it('read_file / get_file_info on the synthesized directory do not crash', async () => {
    const ts = setup();
    const r: any = await ts.callTool('read_file', { path: '/q' });
    expect(r.ok).toBe(false);
    expect(['not_a_file', 'not_found']).toContain(r.error.code);
    const info: any = await ts.callTool('get_file_info', { path: '/q' });
    expect(info.ok ? 'ok' : info.error.code).not.toBe('io_error');
  });
});

describe('rt38: a host FILE named like the missing directory', () => {
  function setup() {
    const root = mk({ q: 'i am a file', 'x.txt': 'x' });
    const r = mk({ 'r1.txt': '1' });
    return new FileSystemToolset(
      new Sandbox({
        mounts: [
          { hostPath: root, mountPoint: '/', mode: 'ro' },
          { hostPath: r, mountPoint: '/q/r', mode: 'ro' },
        ],
      }),
    );
  }
  it('the mount is readable', async () => {
    expect((await setup().callTool('read_file', { path: '/q/r/r1.txt' })).ok).toBe(true);
  });
  it('listing "/" shows the mount at its mount point', async () => {
    const out = await list(setup(), '/');
    // got ["/q", "/x.txt"]: the host file "q" hides the mount (childrenOf skips the made directory when the
    // host has an entry of that name, of any kind); listing "/q" does show it
    expect(out.entries).toContain('/q/r/r1.txt');
  });
  it('listing "/q" shows the mount', async () => {
    const out = await list(setup(), '/q');
    expect(out.entries).toContain('/q/r/r1.txt');
  });
});

describe('rt38: a mount below a missing parent inside another nested mount', () => {
  function setup() {
    const root = mk({ 'x.txt': 'x' });
    const m = mk({ 'm.txt': 'm' });
    const deep = mk({ 'd.txt': 'd' });
    return new FileSystemToolset(
      new Sandbox({
        mounts: [
          { hostPath: root, mountPoint: '/', mode: 'ro' },
          { hostPath: m, mountPoint: '/a/m', mode: 'ro' },
          { hostPath: deep, mountPoint: '/a/m/x/y', mode: 'ro' },
        ],
      }),
    );
  }
  it('"/" and "/a/m/x" list it', async () => {
    const ts = setup();
    expect((await list(ts, '/')).entries).toEqual([
      '/a/',
      '/a/m/',
      '/a/m/m.txt',
      '/a/m/x/',
      '/a/m/x/y/',
      '/a/m/x/y/d.txt',
      '/x.txt',
    ]);
    expect((await list(ts, '/a/m/x')).entries).toEqual(['/a/m/x/y/', '/a/m/x/y/d.txt']);
  });
});

describe('rt38: derived sandboxes', () => {
  function base() {
    const root = mk({ 'x.txt': 'x', 'secret.txt': 's', 'a/k.txt': 'k' });
    fs.symlinkSync('x.txt', path.join(root, 'lx.txt'));
    fs.symlinkSync('secret.txt', path.join(root, 'ls.txt'));
    const r = mk({ 'r1.txt': '1', 'r2.txt': '2' });
    return new Sandbox({
      mounts: [
        { hostPath: root, mountPoint: '/', mode: 'ro' },
        { hostPath: r, mountPoint: '/q/r', mode: 'ro' },
      ],
    });
  }
  it('granting a file inside a mount below a missing parent', async () => {
    const ts = new FileSystemToolset(base().derive({ allowRead: ['/q/r/r1.txt'] }));
    expect((await ts.callTool('read_file', { path: '/q/r/r1.txt' })).ok).toBe(true);
    expect((await list(ts, '/')).entries).toEqual(['/q/r/r1.txt']);
    expect((await list(ts, '/q')).entries).toEqual(['/q/r/r1.txt']);
  });
  it('granting the missing parent directory itself', async () => {
    const ts = new FileSystemToolset(base().derive({ allowRead: ['/q'] }));
    expect((await ts.callTool('read_file', { path: '/q/r/r1.txt' })).ok).toBe(true);
    const q = await list(ts, '/q');
    expect(q.entries).toEqual(['/q/r/', '/q/r/r1.txt', '/q/r/r2.txt']);
    const root = await list(ts, '/');
    // got path_not_in_sandbox "/ is outside the sandbox. Readable roots: /q": the granted root /q has no
    // host directory, so walkRoots drops it as "a granted root that does not exist"
    expect(root.entries ?? root).toEqual(['/q/', '/q/r/', '/q/r/r1.txt', '/q/r/r2.txt']);
  });
  it('held: granted files that do not exist, next to a granted symlink and its granted target', async () => {
    const ts = new FileSystemToolset(
      base().derive({ allowRead: ['/nope.txt', '/q/r/nope.txt', '/lx.txt', '/x.txt'] }),
    );
    expect((await list(ts, '/')).entries).toEqual(['/lx.txt', '/x.txt']);
  });
  it('only granted files that do not exist (yet): "/" is refused as outside the sandbox', async () => {
    const ts = new FileSystemToolset(base().derive({ allowRead: ['/nope.txt'] }));
    const root = await list(ts, '/');
    // got path_not_in_sandbox "/ is outside the sandbox. Readable roots: /nope.txt" (an empty listing expected)
    expect(root.entries ?? root.error).toEqual([]);
  });
  it('a granted symlink to a file that is not granted is not listed unless readable', async () => {
    const ts = new FileSystemToolset(base().derive({ allowRead: ['/ls.txt'] }));
    const read: any = await ts.callTool('read_file', { path: '/ls.txt' });
    const root = await list(ts, '/');
    // listing and reading must agree
    expect((root.entries ?? []).includes('/ls.txt')).toBe(read.ok);
  });
  it('every listed entry of a derived sandbox is readable', async () => {
    const ts = new FileSystemToolset(base().derive({ allowRead: ['/x.txt', '/q/r/r2.txt', '/a'] }));
    const root = await list(ts, '/');
    expect(root.entries).toEqual(['/a/', '/a/k.txt', '/q/r/r2.txt', '/x.txt']);
  });
});

describe('rt38: readApproval on a nested mount', () => {
  function setup() {
    const root = mk({ 'x.txt': 'x' });
    const r = mk({ 'r1.txt': '1' });
    return new FileSystemToolset(
      new Sandbox({
        mounts: [
          { hostPath: root, mountPoint: '/', mode: 'ro' },
          { hostPath: r, mountPoint: '/q/r', mode: 'ro', readApproval: true },
        ],
      }),
    );
  }
  it('reading the mount asks', async () => {
    const na: any = await setup().needsApproval('read_file', { path: '/q/r/r1.txt' });
    expect(na.status).toBe('needs_approval');
  });
  // got pre_approved for both: needsApproval looks only at the mount of the listed directory, never at the
  // nested mounts the walk enters (also when the parent exists on the host: "/a" with a readApproval "/a/r")
  it('listing the missing parent (which lists only the approval mount) asks', async () => {
    const na: any = await setup().needsApproval('list_files', { path: '/q' });
    expect(na.status).toBe('needs_approval');
  });
  it('listing "/" (which lists the approval mount\'s files) asks', async () => {
    const na: any = await setup().needsApproval('list_files', { path: '/' });
    expect(na.status).toBe('needs_approval');
  });
});
