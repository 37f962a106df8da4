// Red team rt52: patch_file on a file with no line end yet, with a `diff -u` diff whose added lines
// mix CRLF and LF. GNU patch writes each line's own end; patch_file rewrites them all to one end,
// silently (docs only say the file "takes the line end the diff's added lines were written with").
// Left open (it.fails): every line a diff adds is written with one line end, the file's or, for a
// file with none yet, the one most added lines use; a diff mixing them per line is not followed.
import { describe, expect, it } from 'vitest';
import { patchFile } from './rt52-helpers.js';

describe('rt52 patch_file: mixed line ends into a file with none yet', () => {
  it.fails('empty file, diff -u of "" -> "x\\r\\ny\\n"', async () => {
    const diff = '--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1,2 @@\n+x\r\n+y\n';
    const r = await patchFile('', diff);
    // GNU patch: "x\r\ny\n"; actual: "x\ny\n"
    if (r.ok) expect(r.out).toBe('x\r\ny\n');
  });

  it.fails('one line without newline, diff -u of "abc" -> "abc\\ny\\r\\nz\\r\\n"', async () => {
    const diff =
      '--- a/f.txt\n+++ b/f.txt\n@@ -1 +1,3 @@\n-abc\n\\ No newline at end of file\n+abc\n+y\r\n+z\r\n';
    const r = await patchFile('abc', diff);
    // GNU patch: "abc\ny\r\nz\r\n"; actual: "abc\r\ny\r\nz\r\n"
    if (r.ok) expect(r.out).toBe('abc\ny\r\nz\r\n');
  });
});
