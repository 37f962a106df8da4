// rt36 "No cliffs": many-hunk patch_file and many-operation edit_lines on a 1M-line file must not hang.
// Each case runs in a child process (the work is synchronous, so an in-process vitest timeout could not
// interrupt it) with a wall-clock budget for the one tool call. On the same machine the same call on a
// 100k-line file with a tenth of the hunks/operations takes a few seconds at most (see the 100k cases),
// so a roughly linear implementation has ~10× headroom; the current code is O(hunks × lines).
// Outcomes and bytes are asserted; the budget only turns a hang into a failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBudgeted } from './rt36-budgeted-child.js';

const SRC = path.resolve(__dirname, '../../src/index.ts');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Child: builds an N-line file, prepares the call, prints START, runs it, checks bytes, prints the result. */
function childScript(
  tool: 'patch_file' | 'edit_lines',
  N: number,
  K: number,
  dir: string,
  gated: boolean,
): string {
  return `
import fs from 'node:fs'; import path from 'node:path'; import crypto from 'node:crypto';
import { ApprovalToolset, FileSystemToolset, Sandbox } from ${JSON.stringify(SRC)};
const N = ${N}, K = ${K}, dir = ${JSON.stringify(dir)};
const step = Math.floor(N / K);
const lines = Array.from({ length: N }, (_, i) => 'row ' + i + ' v');
const text = lines.join('\\n') + '\\n';
fs.writeFileSync(path.join(dir, 'f.txt'), text);
const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: ${gated} }));
const t = ${gated} ? new ApprovalToolset(ts, { approve: () => ({ approved: true }) }) : ts;
const want = lines.slice();
let args;
if (${JSON.stringify(tool)} === 'patch_file') {
  let d = '--- a/f.txt\\n+++ b/f.txt\\n';
  for (let i = 0, k = 0; k < K; i += step, k++) { d += '@@ -' + (i + 1) + ',1 +' + (i + 1) + ',1 @@\\n-row ' + i + ' v\\n+row ' + i + ' W\\n'; want[i] = 'row ' + i + ' W'; }
  args = { path: '/f.txt', unified_diff: d, base_sha256: crypto.createHash('sha256').update(text).digest('hex') };
} else {
  const anchors = [];
  for (let off = 1; ; ) {
    const r = await ts.callTool('read_file', { path: '/f.txt', hashes: true, offset: off });
    for (const l of r.data.content.split('\\n')) anchors.push(l.split('|')[0]);
    if (r.data.next_offset == null) break;
    off = r.data.next_offset;
  }
  const operations = [];
  for (let i = 1, k = 0; k < K; i += step, k++) { operations.push({ op: 'replace_line', hash: anchors[i], content: 'row ' + i + ' Z' }); want[i] = 'row ' + i + ' Z'; }
  args = { path: '/f.txt', operations };
}
console.log('START');
const s = performance.now();
const r = await t.callTool(${JSON.stringify(tool)}, args);
const ms = performance.now() - s;
const after = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
console.log('RESULT ' + JSON.stringify({ ok: r.ok, code: r.ok ? undefined : r.error.code, ms, bytesOk: after === want.join('\\n') + '\\n' }));
`;
}

async function run(tool: 'patch_file' | 'edit_lines', N: number, K: number, budgetMs: number, gated = false) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt36-sl-')));
  dirs.push(dir);
  return runBudgeted<{ ok: boolean; code: string; bytesOk: boolean }>(
    childScript(tool, N, K, dir, gated),
    budgetMs,
  );
}

const N = Number(process.env.RT36_N ?? 1_000_000);
const K = Number(process.env.RT36_K ?? 20_000);

describe('rt36: no superlinear cliff for many hunks / many line operations', () => {
  it('patch_file: 2,000 one-line hunks on a 100k-line file (reference scale)', async () => {
    const r = await run('patch_file', 100_000, 2_000, 45_000);
    console.log('patch_file 100k/2k', r);
    expect(r).toMatchObject({ ok: true, bytesOk: true });
  }, 120_000);

  it(`patch_file: ${K} one-line hunks on a ${N}-line file finishes within 45 s and writes exactly the patch`, async () => {
    const r = await run('patch_file', N, K, 45_000);
    console.log(`patch_file ${N}/${K}`, r);
    expect(r.hung, 'patch_file did not finish within 45 s (O(hunks × lines) hunk location)').not.toBe(true);
    expect(r).toMatchObject({ ok: true, bytesOk: true });
  }, 180_000);

  it('edit_lines: 2,000 replace_line operations on a 100k-line file (reference scale)', async () => {
    const r = await run('edit_lines', 100_000, 2_000, 45_000);
    console.log('edit_lines 100k/2k', r);
    expect(r).toMatchObject({ ok: true, bytesOk: true });
  }, 120_000);

  it(`edit_lines: ${K} replace_line operations on a ${N}-line file finishes within 45 s and writes exactly them`, async () => {
    const r = await run('edit_lines', N, K, 45_000);
    console.log(`edit_lines ${N}/${K}`, r);
    expect(
      r.hung,
      'edit_lines did not finish within 45 s (O(operations × lines) anchor resolution)',
    ).not.toBe(true);
    expect(r).toMatchObject({ ok: true, bytesOk: true });
  }, 180_000);
});
