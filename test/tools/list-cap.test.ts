import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';
import { ok } from './fixture.js';

/** n files spread over two directories. */
function tree(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`${i % 2 ? 'a' : 'b'}/f${i}.txt`, 'x']));
}

describe('list_files stops at its cap', () => {
  it('says truncated exactly when more entries match than the cap allows', async () => {
    const cap = 5;
    for (let n = 0; n <= 9; n++) {
      const dir = tempDir(tree(n));
      const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'ro' }), {
        limits: { listMaxEntries: cap },
      });
      const all = n === 0 ? 0 : n + (n > 1 ? 2 : 1); // files plus their directories
      const data = ok<{ entries: string[]; count: number; truncated: boolean }>(
        await toolset.callTool('list_files', { path: '/' }),
      );
      expect(data.count).toBe(Math.min(all, cap));
      expect(data.truncated).toBe(all > cap);
      expect(data.entries).toEqual([...data.entries].sort());
      const files = ok<{ truncated: boolean; count: number }>(
        await toolset.callTool('list_files', { path: '/', pattern: '**/*.txt' }),
      );
      expect(files.truncated).toBe(n > cap);
      expect(files.count).toBe(Math.min(n, cap));
    }
  });
});

describe('list_files order', () => {
  // Directories list in whatever order the file system keeps (creation order here, hash order
  // on others): created shuffled, the listing and every capped start of it are still sorted.
  it('is the sorted listing, and a capped listing is its start, whatever order entries were made in', async () => {
    const names = Array.from({ length: 3000 }, (_, i) => `n${(i * 7919) % 3000}`);
    const files: Record<string, string> = {};
    for (const [i, name] of names.entries()) {
      // Files, directories with files in them, names that sort around "/" ("a.b" before "a/").
      if (i % 10 === 0) files[`${name}/inner${i % 3}.txt`] = 'x';
      else if (i % 10 === 1) files[`${name}.b/x`] = 'x';
      // UTF-8 byte order (readdir's) and UTF-16 order (the listing's) differ here.
      else if (i % 10 === 2) {
        files[`${name}\u{1F600}`] = 'x';
        files[`${name}\uFF01`] = 'x';
      } else if (i % 10 === 3) {
        // A directory "x/" sorts after a file "x.txt" ("." before "/").
        files[`${name}/f`] = 'x';
        files[`${name}.txt`] = 'x';
      } else files[name] = 'x';
    }
    const dir = tempDir(files);
    const all = ok<{ entries: string[]; truncated: boolean }>(
      await new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'ro' }), {
        limits: { listMaxEntries: 100_000 },
      }).callTool('list_files', { path: '/' }),
    );
    expect(all.truncated).toBe(false);
    expect(all.entries).toEqual([...all.entries].sort());
    for (const cap of [1, 7, 100, 1000, 3999]) {
      const capped = ok<{ entries: string[]; truncated: boolean }>(
        await new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'ro' }), {
          limits: { listMaxEntries: cap },
        }).callTool('list_files', { path: '/' }),
      );
      expect(capped.entries).toEqual(all.entries.slice(0, cap));
      expect(capped.truncated).toBe(true);
    }
  });
});
