// rt61: list_files patterns. (1) A glob of stars separated by one letter ('*a*a*a*a*a*a*c') is compiled by
// picomatch into a regex of lazy `[^/]*?` groups that backtracks polynomially (O(L^k)) on a name with many
// of that letter: one file named 'a'×200 blocks the event loop for ~1.5 s at k=4 and for minutes at k=6+,
// synchronously (no timeout can stop it; an MCP server hangs). (2) A pattern over 65,536 characters is
// refused as io_error (picomatch's internal "Input length exceeds" exception), not invalid_argument.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path, { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { runBudgeted } from './rt36-budgeted-child.js';

const ROOT = path.resolve(__dirname, '../..');
const dir = mkdtempSync(join(os.tmpdir(), 'rt61-glob-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(nameLength: number, pattern: string): string {
  return `
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FileSystemToolset, Sandbox } from ${JSON.stringify(`${ROOT}/src/index.ts`)};
const d = mkdtempSync(join(${JSON.stringify(dir)}, 'c-'));
writeFileSync(join(d, 'a'.repeat(${nameLength})), 'x');
const ts = new FileSystemToolset(Sandbox.fromDirectory(d, { mode: 'rw', writeApproval: false }));
console.log('START');
const t0 = performance.now();
const r = await ts.callTool('list_files', { path: '/', pattern: ${JSON.stringify(pattern)} });
console.log('RESULT ' + JSON.stringify({ ok: r.ok, code: r.ok ? undefined : r.error.code, ms: Math.round(performance.now() - t0) }));
`;
}

describe('rt61: list_files pathological globs', () => {
  it('reference: *a*a*a*a*c on a 100-char name is quick', async () => {
    const r = await runBudgeted<{ ok: boolean }>(script(100, '*a*a*a*a*c'), 20_000, ROOT);
    console.log('k=4 L=100', r);
    expect(r.ok).toBe(true);
  }, 60_000);

  it('*a*a*a*a*a*a*a*a*c on one file named a×200 answers within 20 s', async () => {
    const r = await runBudgeted<{ ok: boolean }>(script(200, `${'*a'.repeat(8)}*c`), 20_000, ROOT);
    console.log('k=8 L=200', r);
    expect(r.hung, 'list_files froze in regex backtracking').not.toBe(true);
    expect(r.ok).toBe(true);
  }, 60_000);

  it('a 70,000-character pattern is refused as invalid_argument, not io_error', async () => {
    const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
    writeFileSync(join(dir, 'x.txt'), 'x');
    const r: any = await ts.callTool('list_files', { path: '/', pattern: 'a'.repeat(70_000) });
    console.log(r);
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('invalid_argument');
  });
});
