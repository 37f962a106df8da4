// rt48 "No cliffs" — approval payloads stay bounded at scale, and what goes back to the model does too.
// A one-line file change next to (or of) a single 20 MB line:
// - delete_file: the payload's `preview` ("first 50 lines") is the whole 20 MB line, with
//   previewTruncated: false — a delete of a minified bundle puts the bundle in the approval payload.
// - edit_file of the short line 2 after a 20 MB line 1: `contextBefore` ("up to 3 lines") is the 20 MB
//   line, and the dry-run result handed to the model carries that line three times (diff, the payload's
//   unifiedDiff and contextBefore: > 60 MB), although edit_file's own result cuts long lines and the
//   whole diff at readMaxChars ("so a big insertion is not echoed back into the model's context").
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
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt48-pl-')));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), content);
  return new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
}
const BIG = 'q'.repeat(20_000_000);
/** Generous: 20× readMaxChars. */
const BOUND = 1_000_000;

describe('rt48: payloads and dry-run results next to a 20 MB line', () => {
  it('delete_file payload preview of a one-line 20 MB file is bounded (or says it was truncated)', async () => {
    const ts = setup(`${BIG}\nsecond\n`);
    const r: any = await ts.callTool('delete_file', { path: '/f.txt', dryRun: true });
    expect(r.ok).toBe(true);
    const p = (r.data as { payload: { preview: string; previewTruncated: boolean } }).payload;
    expect(
      p.preview.length <= BOUND || p.previewTruncated,
      `preview ${p.preview.length} chars, previewTruncated ${p.previewTruncated}`,
    ).toBe(true);
    expect(p.preview.length).toBeLessThanOrEqual(BOUND);
  });

  it('edit_file payload contextBefore does not carry a whole 20 MB neighbour line', async () => {
    const ts = setup(`${BIG}\nsecond\n`);
    const r: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'second',
      new_string: 'third',
      dryRun: true,
    });
    expect(r.ok).toBe(true);
    const p = (r.data as { payload: { contextBefore: string; added: number; removed: number } }).payload;
    expect([p.added, p.removed]).toEqual([1, 1]);
    expect(p.contextBefore.length).toBeLessThanOrEqual(BOUND);
    expect(p.contextBefore.startsWith('qqq')).toBe(true);
  });

  it('edit_file dry run of a one-word change next to a 20 MB line returns a bounded result to the model', async () => {
    const ts = setup(`${BIG}\nsecond\n`);
    const r: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'second',
      new_string: 'third',
      dryRun: true,
    });
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r.data).length).toBeLessThanOrEqual(3 * BOUND);
  });

  it('held: the real edit_file result (no dry run) is bounded and the bytes are exact', async () => {
    const ts = setup(`${BIG}\nsecond\n`);
    const r: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'second',
      new_string: 'third',
    });
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r.data).length).toBeLessThanOrEqual(BOUND);
  });
});
