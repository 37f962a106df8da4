/**
 * `diff -u` of "}\n}" (no final newline) -> "NEW\n}\n" is
 *   @@ -1,2 +1,2 @@ / +NEW / ' }' / -} / \ No newline at end of file
 * GNU patch applies it as "NEW\n}\n" (the new side has no marker, so its last line is terminated).
 * patch_file reports success and writes "NEW\n}" (final newline missing). The docs' rule only adds the
 * newline when the new side ends with an added line; here it ends with a context line, so the tool
 * silently diverges from what the diff says.
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { get, mkdir, put, raw, rm } from './rt50-helpers.js';

const dir = mkdir();
afterAll(() => rm(dir));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('rt50 patch_file: old "\\ No newline" marker after a removed line, new side ends with context', () => {
  it('"}\\n}" + diff -u output -> "NEW\\n}\\n" (as GNU patch), or refused', async () => {
    const oldT = '}\n}';
    put(dir, 'a.txt', oldT);
    const patch = '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n+NEW\n }\n-}\n\\ No newline at end of file\n';
    const out: any = await raw(dir).callTool('patch_file', {
      path: '/a.txt',
      unified_diff: patch,
      base_sha256: sha(oldT),
    });
    const after = get(dir, 'a.txt');
    if (out.ok) expect(after).toBe('NEW\n}\n');
    else expect(after).toBe(oldT);
  });

  it('"}\n}" -> "}\n" via diff -u (deletes the unterminated last line): GNU patch gives "}\n" (docs choose "}")', async () => {
    const oldT = '}\n}';
    put(dir, 'b.txt', oldT);
    const patch = '--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1 @@\n }\n-}\n\\ No newline at end of file\n';
    const out: any = await raw(dir).callTool('patch_file', {
      path: '/b.txt',
      unified_diff: patch,
      base_sha256: sha(oldT),
    });
    const after = get(dir, 'b.txt');
    if (out.ok) expect(after).toBe('}\n');
    else expect(after).toBe(oldT);
  });
});
