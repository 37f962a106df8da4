// Red team (rt34): cost of edit_not_found on non-ASCII text.
// Promise: the not-found search costs a few substring scans plus a bounded number of lines scored, whatever
// the input (odd Unicode included): never more than a couple of times a plain read of the file.
// Observed: the closest-region scorer (AnchorScorer.take -> isSpace) runs `/\s/.test(String.fromCharCode(c))`
// for EVERY non-ASCII character of every scored line: a regex call plus a string per character. With CJK
// text (256 candidate lines of 60,000 chars, 15.4 M chars) the edit_not_found call took ~3.4 s where a
// read_file of the same file took ~70 ms (~50x). Structural check here (no timing): the number of
// RegExp.prototype.test calls made by one edit_not_found call must not grow with the characters scored.
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

describe('edit_not_found on CJK text', () => {
  it('does no per-character regex work when scoring candidate lines', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt34-cjk-'));
    const W = 8;
    const words = Array.from(
      { length: W },
      (_, k) => `${String.fromCharCode(0x4e00 + k).repeat(3)}汉字测试词语组${k}`,
    );
    const filler = (n: number) => {
      let s = '';
      for (let i = 0; i < n; i++) s += String.fromCharCode(0x5000 + ((i * 7919) % 5000));
      return s;
    };
    const lines: string[] = [];
    for (let k = 0; k < W; k++) for (let j = 0; j < 32; j++) lines.push(words[k] + filler(3000));
    const content = `${lines.join('\n')}\n`; // 256 lines, ~770k CJK chars
    fs.writeFileSync(path.join(root, 'f.txt'), content);
    const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
    const oldString = `${words.join(' ')} ${filler(1000)}`;
    const spy = vi.spyOn(RegExp.prototype, 'test');
    const r: any = await ts.callTool('edit_file', { path: '/f.txt', old_string: oldString, new_string: 'X' });
    const calls = spy.mock.calls.length;
    spy.mockRestore();
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('edit_not_found');
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe(content);
    // ~770k characters scored: one regex call each is what makes it ~50x a read.
    expect(calls).toBeLessThan(10_000);
  }, 60_000);
});
