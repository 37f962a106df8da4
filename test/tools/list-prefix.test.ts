// A capped list_files is the start of the whole listing: the first entries in sorted order, never a
// sample of whichever the walk met first (a model takes the names missing before the last one shown
// for absent).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';

// Names whose order is easy to get wrong: "a.txt" sorts before "a/…" ('.' < '/'), "a-" before both,
// capitals before lower case, non-ASCII last.
const name = fc.constantFrom('a', 'a.txt', 'a-', 'a0', 'b', 'B', '_', 'é', 'z.md');
type Tree = { [name: string]: Tree | string };
const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((t) => ({
  tree: fc.dictionary(name, fc.oneof({ depthSize: 'small' }, fc.constant('x'), t('tree')), { maxKeys: 5 }),
})).tree;

function write(dir: string, t: Tree): void {
  for (const [n, v] of Object.entries(t)) {
    if (typeof v === 'string') fs.writeFileSync(path.join(dir, n), v);
    else {
      fs.mkdirSync(path.join(dir, n));
      write(path.join(dir, n), v);
    }
  }
}

describe('list_files with a cap', () => {
  it('lists the first entries of the whole sorted listing, and says truncated exactly when there were more', async () => {
    await fc.assert(
      fc.asyncProperty(
        tree,
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom('**/*', '**/*.txt', '*'),
        async (t, cap, pattern) => {
          const dir = tempDir({});
          write(dir, t);
          const list = async (max: number) => {
            const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'ro' }), {
              limits: { listMaxEntries: max },
            });
            const out = await toolset.callTool('list_files', { path: '/', pattern });
            if (!out.ok) throw new Error(out.error.message);
            return out.data as { entries: string[]; truncated: boolean };
          };
          const all = await list(10_000);
          const some = await list(cap);
          expect(all.entries).toEqual([...all.entries].sort());
          expect(some.entries).toEqual(all.entries.slice(0, cap));
          expect(some.truncated).toBe(all.entries.length > cap);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('keeps the order across nested mounts', async () => {
    const outer = tempDir({ 'a.txt': '', 'm/x.txt': '', 'n.txt': '' });
    const inner = tempDir({ 'b.txt': '', 'c.txt': '' });
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: outer, mountPoint: '/', mode: 'ro' },
        { hostPath: inner, mountPoint: '/m', mode: 'ro' },
      ],
    });
    const full = await new FileSystemToolset(sandbox).callTool('list_files', { path: '/' });
    const capped = await new FileSystemToolset(sandbox, { limits: { listMaxEntries: 3 } }).callTool(
      'list_files',
      {
        path: '/',
      },
    );
    if (!full.ok || !capped.ok) throw new Error('list failed');
    const all = (full.data as { entries: string[] }).entries;
    expect(all).toEqual(['/a.txt', '/m/', '/m/b.txt', '/m/c.txt', '/n.txt']);
    expect((capped.data as { entries: string[] }).entries).toEqual(all.slice(0, 3));
  });
});
