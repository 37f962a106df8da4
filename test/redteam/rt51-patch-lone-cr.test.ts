import { describe, expect, it } from 'vitest';
import { gnuDiff, gnuPatch, patchFile } from './rt51-helpers.js';

// The last line of the file ends with a lone CR and no LF (a CRLF file cut at its final LF, or a CR
// that is part of the line's text). `diff -u` writes it as "-b\r" + "\ No newline at end of file".
// GNU patch keeps the CR as the line's text, and so does patch_file: a line followed by the marker has no
// line end of its own, so in a diff written with LF the CR before its LF is its text.
const cases: Array<[string, string, string]> = [
  ['change the last line, CR kept', 'a\nb\r', 'a\nc\r'],
  ['single line, CR kept', 'b\r', 'c\r'],
  ['add a CR to the last line', 'a\nb', 'a\nb\r'],
  ['CRLF file: drop the final LF only', 'a\r\nb\r\n', 'a\r\nb\r'],
  ['CRLF file cut at its final LF: add the LF', 'a\r\nb\r', 'a\r\nb\r\n'],
];

describe('rt51: patch_file and a lone CR at the end of the last line', () => {
  for (const [name, oldT, newT] of cases) {
    it(`${name}: ${JSON.stringify(oldT)} -> ${JSON.stringify(newT)}`, async () => {
      const diff = gnuDiff(oldT, newT, ['-u']);
      expect(gnuPatch(oldT, diff)).toBe(newT);
      const r = await patchFile(oldT, diff);
      if (r.ok) expect(r.after).toBe(newT);
      else {
        expect(r.code).not.toBe('io_error');
        expect(r.after).toBe(oldT);
      }
    });
  }
});
