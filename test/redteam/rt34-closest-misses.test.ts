// Red team (rt34): edit_file / patch_file not-found hints miss the line most like old_string's longest line.
// Promise: edit_not_found names in details.closest the region placed by the file line most like the longest
// line of old_string (Dice similarity of whitespace-collapsed, quote-folded text, ≥ 0.5), chosen among the
// lines that share a word with it; patch_file says "The nearest candidate is at line N" the same way.
// Observed:
//  - a file line whose only difference is deep indentation or long trailing whitespace (similarity ~0.9 after
//    the documented whitespace collapse) is skipped by the raw-length filter (len > anchor*3+22 counts the
//    indentation / trailing blanks): "No similar region was found." and no details.closest.
//  - when every word of the line is also on more than 32 earlier lines (HITS_PER_PIECE), the near-identical
//    line is never scored: the hint names line 1 (a much less similar line) instead of line 42.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

function setup(content: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt34-closest-'));
  roots.push(root);
  fs.writeFileSync(path.join(root, 'f.txt'), content);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
  return { ts, read: () => fs.readFileSync(path.join(root, 'f.txt'), 'utf8') };
}
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

const cases: Array<{ name: string; file: string[]; target: number; old: string; patchOld: string }> = [
  {
    name: 'deeply indented line',
    file: ['a', 'b', `${' '.repeat(60)}return value;`, 'c'],
    target: 3,
    old: 'return valeu;\nzzz',
    patchOld: 'return valeu;',
  },
  {
    name: 'line with long trailing whitespace',
    file: ['a', 'b', `return value;${' '.repeat(60)}`, 'c'],
    target: 3,
    old: 'return valeu;\nzzz',
    patchOld: 'return valeu;',
  },
  {
    name: 'all words common on >32 earlier lines',
    file: [
      ...Array.from({ length: 40 }, (_, i) => `// const result compute alpha beta gamma noise${i}`),
      'x',
      'const result = compute(alpha, beta, gamma);',
      'y',
    ],
    target: 42,
    old: 'const result = compute(alpha, beta, gama);',
    patchOld: 'const result = compute(alpha, beta, gama);',
  },
];

describe('closest region finds the most similar line', () => {
  for (const c of cases) {
    it(`edit_file: ${c.name}`, async () => {
      const content = `${c.file.join('\n')}\n`;
      const { ts, read } = setup(content);
      const r: any = await ts.callTool('edit_file', { path: '/f.txt', old_string: c.old, new_string: 'X' });
      expect(r.ok).toBe(false);
      expect(r.error.code).toBe('edit_not_found');
      expect(read()).toBe(content);
      expect(r.error.details.closest?.start_line).toBe(c.target);
      expect(r.error.message).toContain(`Did you mean lines ${c.target}-`);
    });
    it(`patch_file: ${c.name}`, async () => {
      const content = `${c.file.join('\n')}\n`;
      const { ts, read } = setup(content);
      const diff = `--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,1 @@\n-${c.patchOld}\n+X\n`;
      const r: any = await ts.callTool('patch_file', {
        path: '/f.txt',
        unified_diff: diff,
        base_sha256: sha(content),
      });
      expect(r.ok).toBe(false);
      expect(read()).toBe(content);
      expect(r.error.message).toContain(`The nearest candidate is at line ${c.target}`);
    });
  }
  it('held: closest with CRLF + BOM + no final newline, U+2028 inside a line, needle longer than file', async () => {
    const content = '\uFEFFa\u2028x\r\nb\r\nreturn value;';
    const { ts, read } = setup(content);
    const r: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'q\nreturn valeu;\nzzz\nyyy',
      new_string: 'X',
    });
    expect(r.error.code).toBe('edit_not_found');
    expect(r.error.details.closest).toEqual({ start_line: 2, end_line: 3 });
    expect(r.error.message).toContain('/f.txt');
    expect(r.error.message).not.toContain(os.tmpdir());
    expect(read()).toBe(content);
  });
});
