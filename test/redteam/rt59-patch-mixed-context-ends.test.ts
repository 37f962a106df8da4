// Red team rt59: a file with both LF and CRLF ends, and a diff that carries CRLFs where the file's
// lines end with LF (a diff sent with CRLF line ends, or one with a wrong end on a context line).
// patch_file then "follows the diff line by line" (docs) - but for context lines and lines removed
// and added back unchanged too, which the docs say "are written as the file has them (byte for
// byte)": their LF becomes CRLF. GNU patch keeps them as the file has them (default mode: strips
// the diff's CRs; --binary: keeps the file's context lines).
import { describe, expect, it } from 'vitest';
import { gnuPatch, patchFile } from './rt59-helpers.js';

const crlfSent = (s: string) => s.replaceAll('\n', '\r\n');
const H = '--- a/f.txt\n+++ b/f.txt\n';

describe('rt59 patch_file: mixed-end file, diff with CRLFs - context lines keep their own ends', () => {
  it("the model's diff sent with CRLF line ends: context lines a and c keep their LF", async () => {
    const oldT = 'a\nb\nc\nd\r\n';
    const diff = crlfSent(`${H}@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n`);
    expect(gnuPatch(oldT, diff)).toBe('a\nB\nc\nd\r\n');
    const r = await patchFile(oldT, diff);
    // Now: ok, written "a\r\nB\r\nc\r\nd\r\n" (untouched lines a and c rewritten with CRLF).
    if (!r.ok) return expect(r.after).toBe(oldT);
    const lines = r.after!.split(/(?<=\n)/);
    expect(JSON.stringify(lines[0])).toBe(JSON.stringify('a\n'));
    expect(JSON.stringify(lines[2])).toBe(JSON.stringify('c\n'));
    expect(lines[3]).toBe('d\r\n');
  });

  it('one context line written with CRLF in an otherwise LF diff: that line keeps its LF', async () => {
    const oldT = 'a\nb\nc\nd\r\n';
    const diff = `${H}@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\r\n`;
    expect(gnuPatch(oldT, diff, { binary: true })).toBe('a\nB\nc\nd\r\n');
    const r = await patchFile(oldT, diff);
    // Now: ok, written "a\nB\nc\r\nd\r\n".
    if (r.ok) expect(JSON.stringify(r.after)).toBe(JSON.stringify('a\nB\nc\nd\r\n'));
    else expect(r.after).toBe(oldT);
  });

  it('five context lines around one change: every untouched line keeps its bytes', async () => {
    const oldT = 'a\nb\nc\nd\ne\nf\ng\r\n';
    const diff = crlfSent(`${H}@@ -1,5 +1,5 @@\n a\n b\n-c\n+C\n d\n e\n`);
    expect(gnuPatch(oldT, diff)).toBe('a\nb\nC\nd\ne\nf\ng\r\n');
    const r = await patchFile(oldT, diff);
    // Now: ok, written "a\r\nb\r\nC\r\nd\r\ne\r\nf\ng\r\n".
    if (!r.ok) return expect(r.after).toBe(oldT);
    const untouched = r.after!.split(/(?<=\n)/).filter((_, i) => i !== 2);
    expect(untouched).toEqual(['a\n', 'b\n', 'd\n', 'e\n', 'f\n', 'g\r\n']);
  });

  it('a line removed and added back unchanged keeps its LF', async () => {
    const oldT = 'a\r\nb\nc\r\n';
    const diff = crlfSent(`${H}@@ -1,3 +1,4 @@\n a\n-b\n+b\n+x\n c\n`);
    expect(gnuPatch(oldT, diff)).toBe('a\r\nb\nx\nc\r\n');
    const r = await patchFile(oldT, diff);
    // Now: ok, written "a\r\nb\r\nx\r\nc\r\n" (b's LF became CRLF).
    if (!r.ok) return expect(r.after).toBe(oldT);
    expect(JSON.stringify(r.after!.split(/(?<=\n)/)[1])).toBe(JSON.stringify('b\n'));
  });

  it('held: an LF diff on the same file keeps every untouched line', async () => {
    const oldT = 'a\nb\nc\nd\r\n';
    const r = await patchFile(oldT, `${H}@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n`);
    expect(r.ok).toBe(true);
    expect(r.after).toBe('a\nB\nc\nd\r\n');
  });
});
