// Red team (rt34): cost of edit_not_found with one very long old_string line.
// Promise: an edit_not_found call never costs more than a couple of times a plain read of the file (10 MB
// lines included), and the search is a few substring scans plus a bounded number of lines scored.
// Observed: with a tiny file ("a\nb\n") and old_string = 'word ' x 2,000,000 + 'X' (one 10 MB line) the
// call took ~3.3 s (read_file of the file: ~1 ms; the same old_string against a file holding a 10 MB line:
// ~3.6 s vs a ~15-25 ms read). Profile: block-index rarestRun splits the whole key of every needle line
// into runs (key.split(/\s+/) -> 2,000,000 strings) at each of the three fuzzy levels, plus GC — the
// closest-region search cuts a line at 64 KiB, the cascade does not. Structural check (no timing): no
// String.prototype.split during the call returns a number of pieces proportional to the needle's words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

let root = '';
afterEach(() => {
  vi.restoreAllMocks();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('edit_not_found with a 2 MB old_string line', () => {
  it('does not split the whole line into words', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt34-longneedle-'));
    const content = 'a\nb\n';
    fs.writeFileSync(path.join(root, 'f.txt'), content);
    const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
    const oldString = `${'word '.repeat(400_000)}X`;
    const real = String.prototype.split;
    let biggest = 0;
    vi.spyOn(String.prototype, 'split').mockImplementation(function (this: string, ...args: any[]) {
      const out = (real as any).apply(this, args) as string[];
      biggest = Math.max(biggest, out.length);
      return out;
    });
    const r: any = await ts.callTool('edit_file', { path: '/f.txt', old_string: oldString, new_string: 'x' });
    vi.restoreAllMocks();
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('edit_not_found');
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe(content);
    expect(biggest).toBeLessThan(100_000);
  }, 60_000);
});
