// Red team rt52: patch_file on a file with no line end yet, with a `diff -u` diff whose added lines
// mix CRLF and LF. GNU patch writes each line's own end; patch_file used to rewrite them all to one end,
// silently. Now a file with no line end yet follows a diff that carries CRLFs line by line.
import { describe, expect, it } from 'vitest';
import { patchFile } from './rt52-helpers.js';

describe('rt52 patch_file: mixed line ends into a file with none yet', () => {
  it('empty file, diff -u of "" -> "x\\r\\ny\\n"', async () => {
    const diff = '--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1,2 @@\n+x\r\n+y\n';
    const r = await patchFile('', diff);
    if (r.ok) expect(r.out).toBe('x\r\ny\n');
  });

  it('one line without newline, diff -u of "abc" -> "abc\\ny\\r\\nz\\r\\n"', async () => {
    const diff =
      '--- a/f.txt\n+++ b/f.txt\n@@ -1 +1,3 @@\n-abc\n\\ No newline at end of file\n+abc\n+y\r\n+z\r\n';
    const r = await patchFile('abc', diff);
    if (r.ok) expect(r.out).toBe('abc\ny\r\nz\r\n');
  });
});
