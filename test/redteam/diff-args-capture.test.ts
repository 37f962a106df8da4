import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch } from 'diff';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup(text = 'a\nb\nc\n', mutate?: (req: any) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), text);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const shown: any[] = [];
  const g = new ApprovalToolset(ts, {
    approve: async (r: any) => {
      shown.push(structuredClone(r.payload));
      mutate?.(r);
      await new Promise((res) => setTimeout(res, 5));
      return { approved: true };
    },
  });
  return { g, shown, before: text, file: () => fs.readFileSync(path.join(dir, 'f.txt'), 'utf8') };
}

function ranAsShown(t: ReturnType<typeof setup>, outcome: any): void {
  if (!outcome.ok) return; // refusing is fine
  expect(t.shown.length).toBe(1);
  const p = t.shown[0];
  if (p.type === 'write') expect(t.file()).toBe(p.content);
  if (p.unifiedDiff && !p.diffCoarse)
    expect(applyPatch(t.before, p.unifiedDiff, { autoConvertLineEndings: false } as any)).toBe(t.file());
}

const variants: Array<[string, () => Record<string, unknown>]> = [
  [
    'getter flipping after first read',
    () => {
      let n = 0;
      return {
        path: '/f.txt',
        get content() {
          return n++ < 1 ? 'SAFE\n' : 'EVIL\n';
        },
      };
    },
  ],
  [
    'getter flipping after three reads',
    () => {
      let n = 0;
      return {
        path: '/f.txt',
        get content() {
          return n++ < 3 ? 'SAFE\n' : 'EVIL\n';
        },
      };
    },
  ],
  [
    'toJSON lying',
    () => ({ path: '/f.txt', content: 'EVIL\n', toJSON: () => ({ path: '/f.txt', content: 'SAFE\n' }) }),
  ],
  [
    'Proxy',
    () => {
      let n = 0;
      return new Proxy({ path: '/f.txt', content: 'x' } as Record<string, unknown>, {
        get: (t, k) => (k === 'content' ? (n++ < 2 ? 'SAFE\n' : 'EVIL\n') : t[k as string]),
      });
    },
  ],
  [
    'class instance',
    () =>
      new (class {
        path = '/f.txt';
        content = 'SAFE\n';
      })() as any,
  ],
  [
    '__proto__ key',
    () => JSON.parse('{"path":"/f.txt","__proto__":{"content":"EVIL\\n"},"content":"SAFE\\n"}'),
  ],
  ['inherited content', () => Object.assign(Object.create({ content: 'EVIL\n' }), { path: '/f.txt' })],
];

describe('write_file arguments: what runs is what is shown', () => {
  for (const [name, make] of variants) {
    it(name, async () => {
      const t = setup();
      const o = await t.g.callTool('write_file', make());
      ranAsShown(t, o);
    });
  }

  it('caller mutates its args object while the approval waits', async () => {
    const t = setup();
    const args: any = { path: '/f.txt', content: 'SAFE\n' };
    const p = t.g.callTool('write_file', args);
    await new Promise((r) => setTimeout(r, 1));
    args.content = 'EVIL\n';
    args.path = '/g.txt';
    ranAsShown(t, await p);
  });

  it('approval callback mutates request.args and the payload', async () => {
    const t = setup('a\nb\nc\n', (r) => {
      try {
        r.args.content = 'EVIL\n';
      } catch {}
      try {
        r.payload.content = 'EVIL2\n';
      } catch {}
    });
    const o = await t.g.callTool('write_file', { path: '/f.txt', content: 'SAFE\n' });
    ranAsShown(t, o);
  });

  it('edit_file: callback mutates args.new_string', async () => {
    const t = setup('a\nb\nc\n', (r) => {
      try {
        r.args.new_string = 'EVIL';
      } catch {}
    });
    const o = await t.g.callTool('edit_file', { path: '/f.txt', old_string: 'b', new_string: 'SAFE' });
    ranAsShown(t, o);
  });

  it('edit_lines: caller mutates operations array while waiting', async () => {
    const t = setup('a\nb\nc\n');
    const rd: any = await t.g.callTool('read_file', { path: '/f.txt', hashes: true });
    const h = rd.data.content.split('\n')[1].split('|')[0];
    const ops: any[] = [{ op: 'replace_line', hash: h, content: 'SAFE' }];
    const p = t.g.callTool('edit_lines', { path: '/f.txt', operations: ops });
    await new Promise((r) => setTimeout(r, 1));
    ops[0].content = 'EVIL';
    ops.push({ op: 'delete_line', hash: rd.data.content.split('\n')[0].split('|')[0] });
    ranAsShown(t, await p);
  });

  it('sparse operations array / -0 / NaN line', async () => {
    const t = setup('a\nb\nc\n');
    const rd: any = await t.g.callTool('read_file', { path: '/f.txt', hashes: true });
    const h = rd.data.content.split('\n')[1].split('|')[0].split('#')[1];
    const ops: any[] = [];
    ops[2] = { op: 'replace_line', hash: h, content: 'SAFE', line: -0 };
    const o1 = await t.g.callTool('edit_lines', { path: '/f.txt', operations: ops });
    ranAsShown(t, o1);
    const t2 = setup('a\nb\nc\n');
    const o2 = await t2.g.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: h, content: 'SAFE', line: Number.NaN }],
    });
    ranAsShown(t2, o2);
  });
});
