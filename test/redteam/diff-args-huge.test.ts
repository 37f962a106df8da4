import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup(text = 'a\nb\nc\n') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), text);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  let asked = 0;
  const g = new ApprovalToolset(ts, { approve: () => (asked++, { approved: true }) });
  return { g, dir, asked: () => asked, file: () => fs.readFileSync(path.join(dir, 'f.txt'), 'utf8') };
}

const BIG = 20 * 1024 * 1024;
const lone = ['\uD800', '\uDFFF', '\uDBFF\uDBFF'];

describe('huge strings with a lone surrogate far in are refused, never written', () => {
  for (const pos of ['start', 'middle', 'end'] as const) {
    for (const s of lone) {
      it(`${pos} ${escape(s)}`, async () => {
        const t = setup();
        const body = 'x'.repeat(BIG);
        const at = pos === 'start' ? 0 : pos === 'middle' ? BIG / 2 + 1 : BIG;
        const bad = body.slice(0, at) + s + body.slice(at);
        const calls: Array<[string, Record<string, unknown>]> = [
          ['write_file', { path: '/f.txt', content: bad }],
          ['edit_file', { path: '/f.txt', old_string: 'b', new_string: bad }],
        ];
        const rd: any = await t.g.callTool('read_file', { path: '/f.txt', hashes: true });
        const h = rd.data.content.split('\n')[1].split('|')[0];
        calls.push([
          'edit_lines',
          { path: '/f.txt', operations: [{ op: 'replace_line', hash: h, content: bad }] },
        ]);
        for (const [tool, args] of calls) {
          const o: any = await t.g.callTool(tool, args);
          expect(`${tool}:${o.ok ? 'ok' : o.error.code}`).toBe(`${tool}:invalid_argument`);
        }
        expect(t.file()).toBe('a\nb\nc\n');
        expect(t.asked()).toBe(0);
      }, 60_000);
    }
  }
});

describe('odd argument objects', () => {
  it('operations as a Proxy array that changes between reads', async () => {
    const t = setup();
    const rd: any = await t.g.callTool('read_file', { path: '/f.txt', hashes: true });
    const an = rd.data.content.split('\n').map((l: string) => l.split('|')[0]);
    let n = 0;
    const real = [{ op: 'replace_line', hash: an[1], content: 'SAFE' }];
    const evil = [{ op: 'replace_line', hash: an[0], content: 'EVIL' }];
    const ops = new Proxy(real, { get: (_t, k) => (n++ < 6 ? (real as any)[k] : (evil as any)[k]) });
    let shown: any;
    const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(t.dir, { mode: 'rw' })), {
      approve: (r) => {
        shown = structuredClone(r.payload);
        return { approved: true };
      },
    });
    const o: any = await g.callTool('edit_lines', { path: '/f.txt', operations: ops });
    if (o.ok) expect(shown.unifiedDiff.includes('+SAFE') && t.file() === 'a\nSAFE\nc\n').toBe(true);
  });

  it('__proto__ inside an operation / replace_all via prototype', async () => {
    const t = setup('b\nb\n');
    const args = JSON.parse(
      '{"path":"/f.txt","old_string":"b","new_string":"c","__proto__":{"replace_all":true}}',
    );
    const o: any = await t.g.callTool('edit_file', args);
    // either refused (not unique) or only... it must not silently replace all
    if (o.ok) expect(t.file()).not.toBe('c\nc\n');
  });

  it('a String object: if accepted, the shown content is what is written', async () => {
    const t = setup();
    const o: any = await t.g.callTool('write_file', { path: '/f.txt', content: new String('S') });
    if (o.ok) expect(t.file()).toBe('S');
  });

  it('non-string content coerced? (String object, number, array)', async () => {
    for (const content of [5, ['a', 'b'], { toString: () => 'X' }]) {
      const t = setup();
      const o: any = await t.g.callTool('write_file', { path: '/f.txt', content });
      expect(o.ok ? 'ok' : o.error.code).toBe('invalid_argument');
      expect(t.file()).toBe('a\nb\nc\n');
    }
  });
});
