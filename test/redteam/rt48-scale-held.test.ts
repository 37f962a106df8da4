// rt48 (held): "No cliffs" cases that held up — kept as regression tests. Outcomes and bytes only;
// timings measured on the red-team machine are in the comments.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
function setup(content: string) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt48-held-')));
  dirs.push(dir);
  const file = path.join(dir, 'f.txt');
  fs.writeFileSync(file, content);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  return { ts, file, read: () => fs.readFileSync(file, 'utf8') };
}
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const text = (l: readonly string[]) => `${l.join('\n')}\n`;
// biome-ignore lint/suspicious/noExplicitAny: test data access
type Any = any;
async function anchorAt(ts: FileSystemToolset, line: number): Promise<string> {
  const r = (await ts.callTool('read_file', { path: '/f.txt', hashes: true, offset: line, limit: 1 })) as Any;
  expect(r.ok, JSON.stringify(r.error)).toBe(true);
  return r.data.content.split('|')[0];
}

describe('rt48 (held): giant single lines', () => {
  // 10 MB line: read hashed 60 ms; patch 130 ms; edit_lines 100-1000 ms.
  for (const [name, sep] of [
    ['LF-free', ''],
    ['CR-only', '\r'],
    ['U+2028', '\u2028'],
  ] as const)
    it(`${name} 10 MB line: edit_lines replaces it by its anchor, exactly`, async () => {
      const big = `${'word'.repeat(500_000)}${sep}`.repeat(5); // ~10 MB, separators inside one line
      const { ts, read } = setup(`first\n${big}\nlast\n`);
      const a = await anchorAt(ts, 2);
      const r: any = await ts.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: a, content: 'short' }],
      });
      expect(r.ok, JSON.stringify(r.ok ? '' : r.error)).toBe(true);
      expect(read()).toBe('first\nshort\nlast\n');
      expect(JSON.stringify(r.data).length).toBeLessThan(200_000);
    }, 60_000);

  it('10 MB line: patch_file changes one word in it, exactly; the result is bounded', async () => {
    const big = `${'a'.repeat(5_000_000)}NEEDLE${'b'.repeat(5_000_000)}`;
    const before = `first\n${big}\nlast\n`;
    const { ts, read } = setup(before);
    const diff = `--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n first\n-${big}\n+${big.replace('NEEDLE', 'PIN')}\n last\n`;
    const r: any = await ts.callTool('patch_file', {
      path: '/f.txt',
      unified_diff: diff,
      base_sha256: sha(before),
    });
    expect(r.ok, JSON.stringify(r.ok ? '' : r.error)).toBe(true);
    expect(read()).toBe(before.replace('NEEDLE', 'PIN'));
    expect(JSON.stringify(r.data).length).toBeLessThan(200_000);
  }, 60_000);

  it('replace_all that would grow a 10 MB file past a JavaScript string is file_too_large, nothing written', async () => {
    const before = 'x'.repeat(10_000_000);
    const { ts, read } = setup(before);
    const r: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'x',
      new_string: 'y'.repeat(100),
      replace_all: true,
    });
    expect(r.ok ? 'ok' : r.error.code).toBe('file_too_large');
    expect(read() === before).toBe(true);
  }, 60_000);
});

describe('rt48 (held): write_file approval diffs at 100k lines', () => {
  const N = 100_000;
  const L = Array.from({ length: N }, (_, i) => `line ${i} of the file = ${(i * 7919) % 100003};`);
  const payload = async (content: string) => {
    const { ts } = setup(text(L));
    const r = (await ts.callTool('write_file', { path: '/f.txt', content, dryRun: true })) as Any;
    expect(r.ok).toBe(true);
    return r.data.payload as { added: number; removed: number; diffCoarse: boolean };
  };
  // measured: 75-210 ms each; reversal 500 ms.
  it('a block of 1,000 lines moved: shows 1,000 removed and 1,000 added', async () => {
    const p = await payload(
      text([...L.slice(0, 20000), ...L.slice(50000, 51000), ...L.slice(20000, 50000), ...L.slice(51000)]),
    );
    expect([p.added, p.removed, p.diffCoarse]).toEqual([1000, 1000, false]);
  });
  it('1% of the lines changed, scattered: shows exactly those', async () => {
    const c = [...L];
    for (let i = 0; i < N; i += 100) c[i] = `${c[i]} // changed`;
    const p = await payload(text(c));
    expect([p.added, p.removed, p.diffCoarse]).toEqual([1000, 1000, false]);
  });
  it('halves swapped: 50,000 each way (minimal), not the whole file', async () => {
    const p = await payload(text([...L.slice(N / 2), ...L.slice(0, N / 2)]));
    expect([p.added, p.removed]).toEqual([50000, 50000]);
  });
  it('low-entropy file (}, blank, return;) with 1% of the lines deleted: shows 1,000 removed, 0 added', async () => {
    const LE = Array.from({ length: N }, (_, i) => (i % 3 === 0 ? '}' : i % 3 === 1 ? '' : '  return;'));
    const { ts } = setup(text(LE));
    const c = [...LE];
    for (let i = N - 50; i >= 0; i -= 100) c.splice(i, 1);
    const r = (await ts.callTool('write_file', { path: '/f.txt', content: text(c), dryRun: true })) as Any;
    expect([r.data.payload.added, r.data.payload.removed]).toEqual([0, 1000]);
  });
});

describe('rt48 (held): many operations, identical lines, odd arguments', () => {
  it('edit_lines: 3,000 shuffled mixed operations on a 200k-line file give exactly the reference', async () => {
    // measured at 1M lines / 3,000 ops: 0.9 s real, 1.3 s dry run
    const N = 200_000;
    const K = 3_000;
    const L = Array.from({ length: N }, (_, i) => `row ${i}`);
    const { ts, read } = setup(text(L));
    const step = Math.floor(N / K);
    const ops: Any[] = [];
    const edits: Array<[number, number]> = [];
    for (let k = 0; k < K; k++) {
      const line = k * step + 5;
      const a = await anchorAt(ts, line);
      const kind = k % 4;
      ops.push(
        kind === 0
          ? { op: 'replace_line', hash: a, content: `R${k}` }
          : kind === 1
            ? { op: 'insert_after', hash: a, content: `IA${k}\nIA${k}b` }
            : kind === 2
              ? { op: 'insert_before', hash: a, content: `IB${k}` }
              : { op: 'delete_line', hash: a },
      );
      edits.push([line, kind]);
    }
    const want = [...L];
    for (let k = K - 1; k >= 0; k--) {
      const [line, kind] = edits[k]!;
      const i = line - 1;
      if (kind === 0) want[i] = `R${k}`;
      else if (kind === 1) want.splice(i + 1, 0, `IA${k}`, `IA${k}b`);
      else if (kind === 2) want.splice(i, 0, `IB${k}`);
      else want.splice(i, 1);
    }
    const shuffled = ops
      .map((o, i) => [Math.sin(i * 12.9898) * 43758.5453, o] as const)
      .sort((x, y) => (x[0] % 1) - (y[0] % 1))
      .map((x) => x[1]);
    const r: any = await ts.callTool('edit_lines', { path: '/f.txt', operations: shuffled });
    expect(r.ok, JSON.stringify(r.ok ? '' : r.error)).toBe(true);
    expect(read() === text(want)).toBe(true);
  }, 120_000);

  it('1M identical lines: edit_lines by a paged anchor edits exactly that line; ambiguous patch is invalid_diff; offsets past the end refused', async () => {
    const before = 'same line\n'.repeat(1_000_000);
    const { ts, read } = setup(before);
    const a = await anchorAt(ts, 500_001);
    const r: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: a, content: 'CHANGED' }],
    });
    expect(r.ok, JSON.stringify(r.ok ? '' : r.error)).toBe(true);
    const after = read();
    expect(after.indexOf('CHANGED')).toBe(500_000 * 'same line\n'.length);
    expect(after.length).toBe(before.length - 2);
    const p: any = await ts.callTool('patch_file', {
      path: '/f.txt',
      base_sha256: sha(after),
      unified_diff: '@@ -10,3 +10,3 @@\n same line\n-same line\n+other\n same line\n',
    });
    expect(p.ok ? 'ok' : p.error.code).toBe('invalid_diff');
    const o: any = await ts.callTool('read_file', { path: '/f.txt', offset: 1_000_001 });
    expect(o.ok ? 'ok' : o.error.code).toBe('invalid_argument');
    const h = (await ts.callTool('read_file', { path: '/f.txt', offset: 1, limit: 1e15 })) as Any;
    expect([h.ok, h.data.end_line, h.data.truncated, h.data.next_offset]).toEqual([true, 2000, true, 2001]);
  }, 60_000);

  it('edit_file: a whole-file old_string at the indentation level (100k lines) changes one line, exactly', async () => {
    const N = 100_000;
    const L = Array.from({ length: N }, (_, i) => `  item ${i};`);
    const { ts, read } = setup(text(L));
    const r: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: L.map((l) => l.trim()).join('\n'),
      new_string: L.map((l, i) => (i === N / 2 ? 'changed;' : l.trim())).join('\n'),
    });
    expect(r.ok, JSON.stringify(r.ok ? '' : r.error)).toBe(true);
    const want = [...L];
    want[N / 2] = '  changed;';
    expect(read() === text(want)).toBe(true);
  }, 60_000);

  it('patch_file: absurd @@ numbers (beyond 2^53) are located by content; a count past the end is not a crash', async () => {
    const L = Array.from({ length: 1000 }, (_, i) => `l${i}`);
    const { ts, read } = setup(text(L));
    const r: any = await ts.callTool('patch_file', {
      path: '/f.txt',
      base_sha256: sha(text(L)),
      unified_diff:
        '@@ -99999999999999999999999,99999999 +99999999999999999999999,1 @@\n l4\n-l5\n+L5\n l6\n',
    });
    expect(r.ok, JSON.stringify(r.ok ? '' : r.error)).toBe(true);
    const want = [...L];
    want[5] = 'L5';
    expect(read()).toBe(text(want));
  });
});
