// Red team rt59: a diff whose lines are written with CRLF (pasted from a Windows tool, or CRLF
// file contents turned into a diff) and whose very last line lost its LF but kept its CR
// ("…\r\n+d\r"). patch_file reads every other line's CRLF as the line end, but this last CR as
// the added line's text: a CRLF file gets "d\r\r\n", an LF file a CRLF line ("d\r\n") although
// the docs say new lines in a uniform file end as the file's do. GNU patch refuses the diff
// ("patch unexpectedly ends in middle of line … malformed patch").
import { describe, expect, it } from 'vitest';
import { gnuPatch, patchFile } from './rt59-helpers.js';

const H = '--- a/f.txt\r\n+++ b/f.txt\r\n';

describe('rt59 patch_file: CRLF diff whose last added line has a CR but no LF', () => {
  it('CRLF file: the new line is "d" with the file\'s CRLF (or the diff is refused), never "d\\r\\r\\n"', async () => {
    const oldT = 'a\r\nb\r\nc\r\n';
    const diff = `${H}@@ -2,2 +2,3 @@\r\n b\r\n c\r\n+d\r`;
    expect(gnuPatch(oldT, diff)).toBeNull();
    expect(gnuPatch(oldT, diff, { binary: true })).toBeNull();
    const r = await patchFile(oldT, diff);
    // Now: ok, written "a\r\nb\r\nc\r\nd\r\r\n".
    if (r.ok) expect(JSON.stringify(r.after)).toBe(JSON.stringify('a\r\nb\r\nc\r\nd\r\n'));
    else expect(r.after).toBe(oldT);
  });

  it('LF file: the new line ends with LF like the file (or the diff is refused), never "d\\r\\n"', async () => {
    const oldT = 'a\nb\nc\n';
    const diff = `${H}@@ -2,2 +2,3 @@\r\n b\r\n c\r\n+d\r`;
    const r = await patchFile(oldT, diff);
    // Now: ok, written "a\nb\nc\nd\r\n" (a CRLF line in a uniform LF file).
    if (r.ok) expect(JSON.stringify(r.after)).toBe(JSON.stringify('a\nb\nc\nd\n'));
    else expect(r.after).toBe(oldT);
  });

  it('held: the same diff with its final LF applies as expected', async () => {
    const r = await patchFile('a\r\nb\r\nc\r\n', `${H}@@ -2,2 +2,3 @@\r\n b\r\n c\r\n+d\r\n`);
    expect(r.ok).toBe(true);
    expect(r.after).toBe('a\r\nb\r\nc\r\nd\r\n');
  });

  it('held: an LF diff without a final newline ("+d") gets the CRLF file\'s end', async () => {
    const r = await patchFile('a\r\nb\r\nc\r\n', '--- a\n+++ b\n@@ -2,2 +2,3 @@\n b\n c\n+d');
    expect(r.ok).toBe(true);
    expect(r.after).toBe('a\r\nb\r\nc\r\nd\r\n');
  });
});
