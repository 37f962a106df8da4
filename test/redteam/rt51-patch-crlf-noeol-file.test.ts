import { describe, expect, it } from 'vitest';
import { gnuDiff, gnuPatch, patchFile } from './rt51-helpers.js';

// The file has no line ending to keep (empty, or one line without a final newline), so the diff's own
// CRLF lines are the only word on line endings. GNU patch writes them as given; patch_file succeeds and
// writes LF instead (the brief lists "file creation from empty, CRLF files").
const cases: Array<[string, string, string]> = [
  ['create a CRLF file from empty', '', 'a\r\nb\r\n'], // actual 'a\nb\n'
  ['one line without newline -> CRLF lines', 'c', 'a\r\nc\r\n'], // actual 'a\nc\n'
];

describe('rt51: patch_file rewrites CRLF lines of the diff as LF when the file has no line ending', () => {
  for (const [name, oldT, newT] of cases) {
    it(name, async () => {
      const diff = gnuDiff(oldT, newT, ['-u']);
      expect(gnuPatch(oldT, diff)).toBe(newT);
      const r = await patchFile(oldT, diff);
      if (r.ok) expect(r.after).toBe(newT);
      else expect(r.after).toBe(oldT);
    });
  }
});
