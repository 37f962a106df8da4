// rt62 (holds): edit tools at 1M lines on adversarial shapes — exact results, stable error codes, nothing
// written on failure, no RangeError / stack overflow surfacing as io_error. Timings seen (2 cores):
// replace_all of 500k overlapping-candidate matches ~0.3 s; patch_file with 100k hunks ~1.2 s; edit_lines
// with 50k ops ~0.8 s (500k ops ~7.6 s, linear); a 1M-line old_string ~1.2 s exact, ~10.7 s at the
// indentation level (linear: 1.0 s at 100k, 2.3 s at 300k); hashed pages of 1M identical blank lines
// 1–170 ms; a result over V8's string limit is file_too_large in ~60 ms.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { seededRandom } from '../helpers/seeded-rng.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const N = 1_000_000;
const lines = (ls: readonly string[], eol = '\n') => ls.map((l) => `${l}${eol}`).join('');

function project(content: string, limits: Record<string, number> = {}) {
  const dir = mkdtempSync(join(os.tmpdir(), 'rt62-scale-'));
  dirs.push(dir);
  const f = join(dir, 'f.txt');
  writeFileSync(f, content);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }), {
    limits,
  });
  const disk = () => readFileSync(f, 'utf8');
  const hash = () => createHash('sha256').update(readFileSync(f)).digest('hex');
  const call = async (tool: string, args: Record<string, unknown>) =>
    (await ts.callTool(tool, { path: '/f.txt', ...args })) as any;
  return { ts, disk, hash, call };
}

describe('rt62 holds: edit tools at 1M lines', () => {
  it('holds: replace_all "a\\na" → "b" over 1M lines "a" replaces 500k non-overlapping matches exactly', async () => {
    const p = project(lines(Array(N).fill('a')));
    const r = await p.call('edit_file', { old_string: 'a\na', new_string: 'b', replace_all: true });
    expect(r.ok).toBe(true);
    expect(r.data.replacements_made).toBe(N / 2);
    expect(p.disk()).toBe('b\n'.repeat(N / 2));
  });

  it('holds: a replace_all result over maxFileBytes, and one over the V8 string limit, are file_too_large; nothing written', async () => {
    const p = project(lines(Array(N).fill('a')));
    const h = p.hash();
    const big = await p.call('edit_file', {
      old_string: 'a',
      new_string: 'x'.repeat(100),
      replace_all: true,
    });
    expect(big.error?.code).toBe('file_too_large');
    const huge = await p.call('edit_file', {
      old_string: 'a',
      new_string: 'x'.repeat(1000),
      replace_all: true,
    });
    expect(huge.error?.code).toBe('file_too_large');
    expect(p.hash()).toBe(h);
  });

  it('holds: patch_file with 100k three-line hunks on 1M unique lines applies exactly', async () => {
    const a = Array.from({ length: N }, (_, i) => `line ${i}`);
    const p = project(lines(a));
    const st = await p.call('read_file', { limit: 1 });
    let diff = '--- a/f.txt\n+++ b/f.txt\n';
    const exp = a.slice();
    for (let i = 1; i < N - 2; i += 10) {
      diff += `@@ -${i},3 +${i},3 @@\n line ${i - 1}\n-line ${i}\n+L${i}\n line ${i + 1}\n`;
      exp[i] = `L${i}`;
    }
    const r = await p.call('patch_file', { unified_diff: diff, base_sha256: st.data.sha256 });
    expect(r.ok, r.error?.message).toBe(true);
    expect(p.disk()).toBe(lines(exp));
  }, 60_000);

  it('holds: edit_lines on a 1M-line CRLF brace-periodic file, 200 anchors from one-line pages, sanity off', async () => {
    const per = ['}', '', '  return x;', '{', 'foo();'];
    const a = Array.from({ length: N }, (_, i) => per[i % 5]!);
    const p = project(lines(a, '\r\n'));
    const r = seededRandom(62);
    const targets = [...new Set(Array.from({ length: 200 }, () => Math.floor(r() * N)))];
    const ops = [];
    for (const t of targets) {
      const page = await p.call('read_file', { hashes: true, offset: t + 1, limit: 1 });
      ops.push({ op: 'replace_line', hash: page.data.content.split('|')[0], content: `R${t}` });
    }
    const o = await p.call('edit_lines', { operations: ops, sanity: 'off' });
    expect(o.ok, o.error?.message).toBe(true);
    const exp = a.slice();
    for (const t of targets) exp[t] = `R${t}`;
    expect(p.disk() === lines(exp, '\r\n')).toBe(true);
  }, 60_000);

  it('holds: failures on a 1M-line file carry their codes and write nothing', async () => {
    const a = Array.from({ length: N }, (_, i) => `common word line ${i % 10} with common words`);
    const p = project(lines(a));
    const h = p.hash();
    const st = await p.call('read_file', { limit: 1 });
    const page = await p.call('read_file', { hashes: true, offset: 500_000, limit: 2 });
    const [h1, h2] = page.data.content.split('\n').map((l: string) => l.split('|')[0]);
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'edit_file',
        { old_string: 'common word line 5 with common wordz', new_string: 'x' },
        'edit_not_found',
      ],
      [
        'edit_file',
        { old_string: 'common word line 5 with common words', new_string: 'x' },
        'edit_not_unique',
      ],
      ['edit_file', { old_string: 'line', new_string: 'x'.repeat(200), replace_all: true }, 'file_too_large'],
      [
        'patch_file',
        { base_sha256: st.data.sha256, unified_diff: '@@ -1,1 +1,1 @@\n-nope\n+x\n' },
        'invalid_diff',
      ],
      [
        'patch_file',
        { base_sha256: '0'.repeat(64), unified_diff: '@@ -1,1 +1,1 @@\n-x\n+y\n' },
        'state_mismatch',
      ],
      [
        'edit_lines',
        {
          operations: [
            { op: 'replace_line', hash: h1, content: 'x' },
            { op: 'delete_range', start_hash: h1, end_hash: h2 },
          ],
        },
        'invalid_argument',
      ],
      [
        'edit_lines',
        { operations: [{ op: 'replace_line', hash: '999999#abcdef', content: 'x' }] },
        'anchor_stale',
      ],
      ['read_file', { offset: N + 5 }, 'invalid_argument'],
    ];
    for (const [tool, args, code] of cases) {
      const r = await p.call(tool, args);
      expect(r.ok, `${tool} ${JSON.stringify(args).slice(0, 80)}`).toBe(false);
      expect(r.error.code, `${tool}: ${r.error.message.slice(0, 200)}`).toBe(code);
      expect(p.hash()).toBe(h);
    }
  }, 120_000);
});
