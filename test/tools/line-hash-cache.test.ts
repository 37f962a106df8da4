import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { ok, project } from './fixture.js';

// Line hashes are kept per content SHA-256 across calls (read_file of a whole file,
// edit_lines before and after an edit). Whatever comes from that cache must be
// exactly what a toolset without it computes.

const FILE = '\uFEFFfunction a() {\r\n  return 1;  \r\n}\r\n\r\nfunction b() {\r\n  return 2;\r\n}\r\n';

async function hashedRead(toolset: FileSystemToolset, args: Record<string, unknown> = {}) {
  return String(ok(await toolset.callTool('read_file', { path: '/f.js', hashes: true, ...args })).content);
}

describe('line hashes cached by content', () => {
  it('give the same anchors as a fresh toolset, after reads and chained edits', async () => {
    const { dir, toolset } = project({ 'f.js': FILE });
    const fresh = () => new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const anchors = (await hashedRead(toolset)).split('\n').map((l) => l.slice(0, l.indexOf('|')));
    const first = ok(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'replace_line', hash: anchors[1], content: '  return 10;' }],
      }),
    );
    // The next edit anchors on a fresh anchor from the returned diff: its hashes come from the cache.
    const added = String(first.diff)
      .split('\n')
      .find((l) => l.startsWith('+'))!;
    ok(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'insert_after', hash: added.slice(1, added.indexOf('|')), content: '  // ten' }],
      }),
    );
    expect(await hashedRead(toolset)).toBe(await hashedRead(fresh()));
    expect(await hashedRead(toolset, { offset: 3, limit: 3 })).toBe(
      await hashedRead(fresh(), { offset: 3, limit: 3 }),
    );
  });
});
