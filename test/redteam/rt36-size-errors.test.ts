// rt36 "No cliffs": a size problem must come back as file_too_large, never as io_error ("try again").
// replace_all that would grow a 10 MB file past V8's longest string (~512 MiB) is reported as io_error
// ("The file operation failed … try again"); growing it to ~75 MB (over maxFileBytes) is correctly file_too_large.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
function setup(text: string, gated: boolean) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt36-se-')));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), text);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: gated }));
  const t = gated ? new ApprovalToolset(ts, { approve: () => ({ approved: true }) }) : ts;
  return { t, read: () => fs.readFileSync(path.join(dir, 'f.txt'), 'utf8') };
}
const TEXT = `${'ab'.repeat(50)}\n`.repeat(100_000); // 10.1 MB, 5M 'a's

describe('rt36: growth past the string limit is file_too_large', () => {
  it('control: replace_all a → 14×a (~75 MB) is file_too_large', async () => {
    const { t, read } = setup(TEXT, false);
    const out: any = await t.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'a',
      new_string: 'a'.repeat(14),
      replace_all: true,
    });
    expect(out.ok ? 'ok' : out.error.code).toBe('file_too_large'); // 5M × 13 more bytes = 75 MB > 64 MiB
    expect(read()).toBe(TEXT);
  }, 60_000);

  it.each([
    false,
    true,
  ])('replace_all a → 120×a (would be ~600 MB), gated=%s: file_too_large, file unchanged', async (gated) => {
    const { t, read } = setup(TEXT, gated);
    const out: any = await t.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'a',
      new_string: 'a'.repeat(120),
      replace_all: true,
    });
    expect(out.ok).toBe(false);
    expect(read()).toBe(TEXT);
    expect(`${out.error.code}: ${out.error.message}`).toMatch(/^file_too_large/);
  }, 60_000);
});
