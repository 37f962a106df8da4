import { afterAll, describe, expect, it } from 'vitest';
import { gated, get, mkdir, put, raw, rm } from './rt50-helpers.js';

const dir = mkdir();
afterAll(() => rm(dir));

describe('rt50 concurrent calls on one file', () => {
  it('parallel edit_file / edit_lines: final file == exactly the successful edits', async () => {
    const N = 30;
    const lines = Array.from({ length: N }, (_, i) => `tok${i} = ${i};`);
    put(dir, 'c.txt', `${lines.join('\n')}\n`);
    const ts = raw(dir);
    const r: any = await ts.callTool('read_file', { path: '/c.txt', hashes: true });
    const anchors = r.data.content.split('\n').map((l: string) => l.split('|')[0]);
    const calls = lines.map((_, i) =>
      i % 2 === 0
        ? ts.callTool('edit_file', {
            path: '/c.txt',
            old_string: `tok${i} = ${i};`,
            new_string: `tok${i} = ${i};\nadded${i}`,
          })
        : ts.callTool('edit_lines', {
            path: '/c.txt',
            operations: [{ op: 'replace_line', hash: anchors[i], content: `rep${i}` }],
          }),
    );
    const outs: any[] = await Promise.all(calls);
    const exp: string[] = [];
    lines.forEach((l, i) => {
      const o = outs[i];
      if (!o.ok) {
        expect(o.error.code).not.toBe('io_error');
        exp.push(l);
        return;
      }
      if (i % 2 === 0) exp.push(l, `added${i}`);
      else exp.push(`rep${i}`);
    });
    expect(get(dir, 'c.txt')).toBe(`${exp.join('\n')}\n`);
    expect(outs.filter((o) => o.ok).length).toBeGreaterThan(N / 2);
  });

  it('parallel gated edits: each payload diff was computed on the file the call then changed', async () => {
    put(dir, 'g.txt', Array.from({ length: 20 }, (_, i) => `v${i}`).join('\n') + '\n');
    const g = gated(dir);
    const outs: any[] = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        g.g.callTool('edit_file', { path: '/g.txt', old_string: `v${i}\n`, new_string: `w${i}\nx\n` }),
      ),
    );
    expect(outs.every((o) => o.ok)).toBe(true);
    expect(get(dir, 'g.txt')).toBe(Array.from({ length: 20 }, (_, i) => `w${i}\nx`).join('\n') + '\n');
  });
});
