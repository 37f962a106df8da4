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
