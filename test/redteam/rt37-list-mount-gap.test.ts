// rt37: list_files — "nested mounts appear at their mount points". A mount whose parent directory does
// not exist on the host of the mount above it is readable, but no listing shows it, and listing its
// parent virtual directory fails with not_found.
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
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt37-lg-')));
  dirs.push(d);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
    fs.writeFileSync(path.join(d, rel), content);
  }
  return d;
}

function setup() {
  const root = mk({ 'x.txt': 'x', 'a/keep.txt': 'k' });
  const deep = mk({ 'in.txt': 'i' });
  const other = mk({ 'in2.txt': 'i' });
  const sandbox = new Sandbox({
    mounts: [
      { hostPath: root, mountPoint: '/', mode: 'ro' },
      { hostPath: deep, mountPoint: '/a/b/c', mode: 'ro' }, // host has a/ but no a/b/
      { hostPath: other, mountPoint: '/q/r', mode: 'ro' }, // host has no q/
    ],
  });
  return new FileSystemToolset(sandbox);
}

describe('rt37: nested mounts below a directory the parent mount lacks', () => {
  it('the mount is readable', async () => {
    const ts = setup();
    expect((await ts.callTool('read_file', { path: '/q/r/in2.txt' })).ok).toBe(true);
    expect((await ts.callTool('read_file', { path: '/a/b/c/in.txt' })).ok).toBe(true);
  });

  it('listing "/" shows both nested mounts and their files', async () => {
    const ts = setup();
    const out: any = await ts.callTool('list_files', { path: '/' });
    expect(out.ok).toBe(true);
    // got ["/a/", "/a/keep.txt", "/x.txt"]: neither mount appears
    expect(out.data.entries).toContain('/q/r/in2.txt');
    expect(out.data.entries).toContain('/a/b/c/in.txt');
  });

  it("listing the mount point's parent directory works", async () => {
    const ts = setup();
    const q: any = await ts.callTool('list_files', { path: '/q' });
    // got not_found: "/q does not exist. Did you mean: /a?"
    expect(q.ok ? q.data.entries : q.error.code).toContain('/q/r/in2.txt');
    const a: any = await ts.callTool('list_files', { path: '/a' });
    expect(a.data.entries).toContain('/a/b/c/in.txt');
  });
});
