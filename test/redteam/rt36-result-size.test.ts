// rt36 "No cliffs": what a tool hands back to the model must not grow with the file. read_file bounds its
// content by readMaxChars (50,000) and edit results cut long runs of changed lines ("so a big insertion is
// not echoed back into the model's context"). These cases show results that echo whole 10 MB lines or
// every line of a 200k-match replace_all back to the model (the bytes written are right).
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
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt36-rs-')));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), content);
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
  return { dir, toolset, read: () => fs.readFileSync(path.join(dir, 'f.txt'), 'utf8') };
}
/** Generous bound: 20× readMaxChars. */
const BOUND = 1_000_000;

describe('rt36: tool results stay bounded for huge lines and huge match counts', () => {
  it('edit_file: a one-word change in a 10 MB line does not echo the 10 MB line (twice) back to the model', async () => {
    const big = `${'a'.repeat(5_000_000)}NEEDLE${'b'.repeat(5_000_000)}`;
    const { toolset, read } = setup(`first\n${big}\nlast\n`);
    const out = await toolset.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'NEEDLE',
      new_string: 'PIN',
    });
    expect(out.ok).toBe(true);
    expect(read()).toBe(`first\n${big.replace('NEEDLE', 'PIN')}\nlast\n`);
    const size = JSON.stringify((out as any).data).length;
    expect(size, `edit_file result is ${size} chars`).toBeLessThan(BOUND);
  }, 60_000);

  it('edit_lines: replacing a 10 MB line does not echo 20 MB of diff back to the model', async () => {
    const big = 'x'.repeat(10_000_000);
    const { toolset, read } = setup(`first\n${big}\nlast\n`);
    const r: any = await toolset.callTool('read_file', { path: '/f.txt', hashes: true, offset: 2, limit: 1 });
    const anchor = String(r.data.content).split('|')[0];
    const out = await toolset.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: anchor, content: `${big}y` }],
    });
    expect(out.ok).toBe(true);
    expect(read()).toBe(`first\n${big}y\nlast\n`);
    const size = JSON.stringify((out as any).data).length;
    expect(size, `edit_lines result is ${size} chars`).toBeLessThan(BOUND);
  }, 60_000);

  it('edit_file replace_all with 200,000 matches: the diff and message are not the whole file', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `row ${i} some`);
    const { toolset, read } = setup(`${lines.join('\n')}\n`);
    const out: any = await toolset.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'some',
      new_string: 'SOME',
      replace_all: true,
    });
    expect(out.ok).toBe(true);
    expect(out.data.replacements_made).toBe(200_000);
    expect(read()).toBe(`${lines.join('\n').replaceAll('some', 'SOME')}\n`);
    expect(out.data.message.length, `message is ${out.data.message.length} chars`).toBeLessThan(10_000);
    expect(out.data.diff.length, `diff is ${out.data.diff.length} chars`).toBeLessThan(BOUND);
  }, 60_000);
});
