import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideAll, FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

describe('red-team: two staging areas apply concurrently over the same base', () => {
  it('exactly one wins; the other is stale and nothing of it lands', async () => {
    for (let t = 0; t < 30; t++) {
      const dir = tempDir({ 'a.txt': 'base\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
      const sb = Sandbox.fromDirectory(dir, { mode: 'rw' });
      const t1 = new FileSystemToolset(sb, { staging: true });
      const t2 = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { staging: true });
      await t1.callTool('write_file', { path: '/a.txt', content: 'one\n' });
      await t1.callTool('write_file', { path: '/b.txt', content: 'one\n' });
      await t2.callTool('write_file', { path: '/c.txt', content: 'two\n' });
      await t2.callTool('write_file', { path: '/a.txt', content: 'two\n' });
      const s1 = t1.stage();
      const s2 = t2.stage();
      const [r1, r2] = await Promise.all([
        s1.apply(decideAll(s1.changeSet(), 'accept')),
        s2.apply(decideAll(s2.changeSet(), 'accept')),
      ]);
      expect([r1.ok, r2.ok].filter(Boolean).length, `t=${t}`).toBe(1);
      const a = fs.readFileSync(path.join(dir, 'a.txt'), 'utf8');
      const b = fs.readFileSync(path.join(dir, 'b.txt'), 'utf8');
      const c = fs.readFileSync(path.join(dir, 'c.txt'), 'utf8');
      if (r1.ok) expect([a, b, c]).toEqual(['one\n', 'one\n', 'c\n']);
      else expect([a, b, c]).toEqual(['two\n', 'b\n', 'two\n']);
    }
  }, 60_000);

  it("person's version for a file plus hunks rejected elsewhere: exact contents", async () => {
    const dir = tempDir({ 'a.txt': 'x\ny\nz\n', 'b.txt': '1\n2\n3\n4\n5\n6\n7\n' });
    const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { staging: true });
    await ts.callTool('write_file', { path: '/a.txt', content: 'X\ny\nZ\n' });
    await ts.callTool('write_file', { path: '/b.txt', content: '1\nTWO\n3\n4\n5\nSIX\n7\n' });
    const st = ts.stage();
    const set = st.changeSet();
    const b = set.files.find((f) => f.path === '/b.txt')!;
    expect(b.hunks.length).toBe(2);
    const r = await st.apply({
      changeSetId: set.id,
      files: {
        '/a.txt': { action: 'edit', content: 'mine\n' },
        '/b.txt': {
          action: 'hunks',
          hunks: { [b.hunks[1]!.id]: 'accept', [b.hunks[0]!.id]: 'reject' },
          notes: { [b.hunks[0]!.id]: 'no' },
        },
      },
    });
    expect(r.ok).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('mine\n');
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('1\n2\n3\n4\n5\nSIX\n7\n');
  });
});
