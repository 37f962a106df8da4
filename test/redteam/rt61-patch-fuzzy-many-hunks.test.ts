// rt61: patch_file with many hunks where ONE hunk needs a lenient level (its lines lost their indentation, or
// use typographic quotes) goes through the rebuild path, whose applyPlacement splices each hunk into the window
// with replaceRange (array.slice(end) + re-push of the whole tail): O(hunks × lines between the first and last
// hunk). Measured (1M-line file, one hunk at line 2 indentation-drifted, the rest exact):
//   100 hunks / 100k lines 0.4 s; 1,000 hunks / 1M lines 39 s; 10,000 hunks / 1M lines 384 s.
// The same patch with every hunk exact: 0.5 s (1,000) / 0.6 s (10,000) / 0.9 s (100,000).
// Every hunk drifted: 1,000 hunks at 10k/100k/1M lines 0.28 s / 3.9 s / 40.6 s; 10,000 hunks at 1M 289 s.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path, { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBudgeted } from './rt36-budgeted-child.js';

const ROOT = path.resolve(__dirname, '../..');
const dir = mkdtempSync(join(os.tmpdir(), 'rt61-patch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(n: number, K: number, drifted: boolean): string {
  return `
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSystemToolset, Sandbox } from ${JSON.stringify(`${ROOT}/src/index.ts`)};
const d = mkdtempSync(join(${JSON.stringify(dir)}, 'c-'));
const n = ${n}, K = ${K}, drifted = ${drifted};
const lines = Array.from({ length: n }, (_, i) => '  s("line ' + i + '");');
const text = lines.join('\\n') + '\\n';
writeFileSync(join(d, 'f.txt'), text);
const step = Math.floor(n / K);
const exp = lines.slice();
const hunks = [];
for (let k = 0; k < K; k++) {
  const i = k * step + 1;
  exp[i] = '  CH(' + i + ');';
  const dr = (l) => (drifted && k === 0 ? l.trimStart() : l);
  hunks.push('@@ -' + i + ',3 +' + i + ',3 @@\\n ' + dr(lines[i - 1]) + '\\n-' + dr(lines[i]) + '\\n+' + dr('  CH(' + i + ');') + '\\n ' + dr(lines[i + 1]) + '\\n');
}
const diff = '--- a/f.txt\\n+++ b/f.txt\\n' + hunks.join('');
const ts = new FileSystemToolset(Sandbox.fromDirectory(d, { mode: 'rw', writeApproval: false }), { limits: { maxFileBytes: 1 << 30 } });
console.log('START');
const t0 = performance.now();
const r = await ts.callTool('patch_file', { path: '/f.txt', unified_diff: diff, base_sha256: createHash('sha256').update(text).digest('hex') });
const ms = Math.round(performance.now() - t0);
const exact = readFileSync(join(d, 'f.txt'), 'utf8') === exp.join('\\n') + '\\n';
console.log('RESULT ' + JSON.stringify({ ok: r.ok, code: r.ok ? undefined : r.error.code, ms, exact }));
`;
}

describe('rt61: patch_file, many hunks, one at the indentation level', () => {
  it('reference: 1,000 exact hunks on 1M lines', async () => {
    const r = await runBudgeted<{ ok: boolean; exact: boolean }>(
      script(1_000_000, 1_000, false),
      20_000,
      ROOT,
    );
    console.log('all exact', r);
    expect(r).toMatchObject({ ok: true, exact: true });
  }, 60_000);

  it('1,000 hunks on 1M lines, the first one indentation-drifted: applied within 20 s', async () => {
    const r = await runBudgeted<{ ok: boolean; exact: boolean }>(
      script(1_000_000, 1_000, true),
      20_000,
      ROOT,
    );
    console.log('one drifted', r);
    expect(r.hung, 'patch_file took >20 s: replaceRange copies the window tail once per hunk').not.toBe(true);
    expect(r).toMatchObject({ ok: true, exact: true });
  }, 60_000);
});
