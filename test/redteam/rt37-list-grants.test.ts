// rt37: list_files in a derived sandbox granted single files. walkRoots promises that "/" lists
// "whatever may be read", but a readable root that is a file is dropped: the file is missing from the
// listing, and with only file grants the listing of "/" is refused as outside the sandbox.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
function mk(files: Record<string, string>): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt37-lgr-')));
  dirs.push(d);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
    fs.writeFileSync(path.join(d, rel), content);
  }
  return d;
}

describe('rt37: list_files with file grants', () => {
  const dir = mk({ 'x.txt': 'x', 'y.txt': 'y', 'src/a.ts': 'a', 'src/b.ts': 'b', 'docs/r.md': 'r' });
  const base = Sandbox.fromDirectory(dir, { mode: 'rw' });

  it('a granted file is listed along with a granted directory', async () => {
    const ts = new FileSystemToolset(base.derive({ allowRead: ['/x.txt', '/src'] }));
    expect((await ts.callTool('read_file', { path: '/x.txt' })).ok).toBe(true);
    const out: any = await ts.callTool('list_files', { path: '/' });
    // got ["/src/", "/src/a.ts", "/src/b.ts"]
    expect(out.data.entries).toEqual(['/src/', '/src/a.ts', '/src/b.ts', '/x.txt']);
  });

  it('only a file granted: listing "/" lists it instead of refusing "/" as outside the sandbox', async () => {
    const ts = new FileSystemToolset(base.derive({ allowRead: ['/x.txt'] }));
    expect((await ts.callTool('read_file', { path: '/x.txt' })).ok).toBe(true);
    const out: any = await ts.callTool('list_files', { path: '/' });
    // got path_not_in_sandbox: "/ is outside the sandbox. Readable roots: /x.txt"
    expect(out.ok ? out.data.entries : out.error.code).toEqual(['/x.txt']);
  });

  it('a file granted inside a directory: listing that directory shows it', async () => {
    const ts = new FileSystemToolset(base.derive({ allowRead: ['/src/a.ts', '/docs'] }));
    const out: any = await ts.callTool('list_files', { path: '/' });
    // got ["/docs/", "/docs/r.md"]
    expect(out.data.entries).toContain('/src/a.ts');
    const src: any = await ts.callTool('list_files', { path: '/src' });
    expect(src.ok ? src.data.entries : src.error.code).toEqual(['/src/a.ts']);
  });
});
