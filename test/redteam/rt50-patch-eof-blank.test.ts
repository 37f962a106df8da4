/**
 * patch_file drops the last added blank line when the old side ends without a final newline.
 * The diffs below are exactly what `diff -u` / jsdiff produce; the hunk header counts the lines.
 * docs/tools.md: "a marker after the old side's last line only, with the new side ending in a line the
 * hunk adds, adds one [final newline]" -- the added blank line(s) must still be written.
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyUnified, gated, get, mkdir, put, raw, rm } from './rt50-helpers.js';

const dir = mkdir();
afterAll(() => rm(dir));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function gnuDiff(oldT: string, newT: string): string {
  writeFileSync(join(dir, 'old.tmp'), oldT);
  writeFileSync(join(dir, 'new.tmp'), newT);
  try {
    execFileSync('diff', [
      '-u',
      '--label',
      'a/f',
      '--label',
      'b/f',
      join(dir, 'old.tmp'),
      join(dir, 'new.tmp'),
    ]);
    return '';
  } catch (e: any) {
    return String(e.stdout);
  }
}

const cases: [string, string][] = [
  ['a', 'a\n\n'],
  ['a', 'a\n\n\n'],
  ['}', '}\n\n'],
  ['a\nb', 'a\nb\n\n'],
  ['a', 'b\n\n'],
];

describe('rt50 patch_file: old side "\\ No newline", new side ends with added blank line', () => {
  for (const [oldT, newT] of cases) {
    it(`${JSON.stringify(oldT)} -> ${JSON.stringify(newT)} (raw toolset)`, async () => {
      const name = `r${cases.findIndex((c) => c[0] === oldT && c[1] === newT)}.txt`;
      put(dir, name, oldT);
      const patch = gnuDiff(oldT, newT);
      expect(patch).toContain('\\ No newline at end of file');
      const out: any = await raw(dir).callTool('patch_file', {
        path: `/${name}`,
        unified_diff: patch,
        base_sha256: sha(oldT),
      });
      const after = get(dir, name);
      // either applied exactly, or refused with the file unchanged -- never "success" with a line missing
      if (out.ok) expect({ patch, after }).toEqual({ patch, after: newT });
      else expect(after).toBe(oldT);
    });
  }

  it('through the approval layer the person is shown (and approves) a diff that also drops the line', async () => {
    const [oldT, newT] = ['a', 'a\n\n\n'];
    put(dir, 'g.txt', oldT);
    const g = gated(dir);
    const patch = gnuDiff(oldT, newT);
    const out: any = await g.g.callTool('patch_file', {
      path: '/g.txt',
      unified_diff: patch,
      base_sha256: sha(oldT),
    });
    expect(out.ok).toBe(true);
    const p = g.payloads[0];
    // the payload diff is consistent with what was written...
    expect(applyUnified(oldT, p.unifiedDiff)).toBe(get(dir, 'g.txt'));
    // ...but not with what the model asked (requestedDiff is the @@ -1,1 +1,3 @@ hunk)
    expect(get(dir, 'g.txt')).toBe(newT);
  });
});
