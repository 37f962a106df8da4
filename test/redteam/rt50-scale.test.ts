import { afterAll, describe, expect, it } from 'vitest';
import { applyUnified, gated, get, mkdir, put, raw, rm } from './rt50-helpers.js';

const dir = mkdir();
afterAll(() => rm(dir));
const N = 100_000;
const lines = Array.from({ length: N }, (_, i) => `line ${i} ${i % 7 === 0 ? '}' : 'foo'}`);
const old = `${lines.join('\n')}\n`;

describe('rt50 scale: payload diff is exact, no coarse fallback', () => {
  it('write_file 100k lines, 1% scattered changes', async () => {
    put(dir, 'w.txt', old);
    const nl = [...lines];
    let seed = 1;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let k = 0; k < N / 100; k++) nl[Math.floor(rnd() * N)] = `changed ${k}`;
    const neu = `${nl.join('\n')}\n`;
    const g = gated(dir);
    const out: any = await g.g.callTool('write_file', { path: '/w.txt', content: neu });
    expect(out.ok).toBe(true);
    expect(get(dir, 'w.txt')).toBe(neu);
    // diffCoarse is not asserted: the diff's budget is time, so a loaded machine may set it; the diff must apply exactly either way.
    expect(applyUnified(old, g.payloads[0].unifiedDiff)).toBe(neu);
  });

  it('replace_all with 85k hits splitting each line', async () => {
    put(dir, 'r.txt', old);
    const g = gated(dir);
    const out: any = await g.g.callTool('edit_file', {
      path: '/r.txt',
      old_string: 'foo',
      new_string: 'b\nar',
      replace_all: true,
    });
    const exp = old.split('foo').join('b\nar');
    expect(out.ok).toBe(true);
    expect(out.data.replacements_made).toBe(old.split('foo').length - 1);
    expect(get(dir, 'r.txt')).toBe(exp);
    // diffCoarse is not asserted: the diff's budget is time, so a loaded machine may set it; the diff must apply exactly either way.
    expect(applyUnified(old, g.payloads[0].unifiedDiff)).toBe(exp);
  });

  it('edit_lines inserting as many lines as the file has (100k)', async () => {
    put(dir, 'm.txt', old);
    const ts = raw(dir);
    const r: any = await ts.callTool('read_file', { path: '/m.txt', hashes: true, offset: N / 2, limit: 1 });
    const anc = r.data.content.split('|')[0];
    const ins = Array.from({ length: N }, (_, i) => `n${i}`);
    const e: any = await ts.callTool('edit_lines', {
      path: '/m.txt',
      operations: [{ op: 'insert_after', hash: anc, content: ins.join('\n') }],
      sanity: 'off',
    });
    expect(e.ok).toBe(true);
    expect(e.data.lines_after).toBe(2 * N);
    const exp = [...lines.slice(0, N / 2), ...ins, ...lines.slice(N / 2)];
    expect(get(dir, 'm.txt')).toBe(`${exp.join('\n')}\n`);
  });
});
