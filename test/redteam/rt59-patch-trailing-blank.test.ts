// Red team rt59: a diff followed by one stray empty line (a model's tool argument ending with
// "\n\n", or a diff pasted with a blank line after it). GNU patch stops each hunk at the line
// counts of its @@ header and ignores what follows; patch_file ignores the counts, takes the
// empty line for a context line that lost its space, and - when the hunk's last change is at
// the end of the file - refuses with `not_found` ("its context and - lines were not found in
// the file … Re-read the file"), which sends the model to re-read a file that is fine and
// rebuild the same diff. Nothing is changed, but the error does not name the real cause.
import { describe, expect, it } from 'vitest';
import { gnuDiff, gnuPatch, patchFile } from './rt59-helpers.js';

const cases: Array<[string, string, string, string[]]> = [
  ['change the last line', 'a\nb\nc\n', 'a\nb\nC\n', ['-u']],
  ['change the last line, -U0', 'a\nb\nc\n', 'a\nb\nC\n', ['-U0']],
  ['drop the final newline, CRLF file', 'a\r\nb\r\nc\r\n', 'a\r\nb\r\nC', ['-u']],
  ['add the final newline', 'a\nb\nc', 'a\nb\nC\n', ['-u']],
  ['create a CRLF file', '', 'a\r\nb\r\n', ['-u']],
  ['delete every line of a CRLF file', 'a\r\nb\r\n', '', ['-u']],
];

describe('rt59 patch_file: a diff followed by a stray empty line', () => {
  for (const [name, oldT, newT, args] of cases) {
    it(name, async () => {
      const diff = `${gnuDiff(oldT, newT, args)}\n`;
      expect(gnuPatch(oldT, diff, { binary: true })).toBe(newT);
      const r = await patchFile(oldT, diff);
      // Now: invalid_diff / not_found for each of these.
      expect(r.after).toBe(r.ok ? newT : oldT);
      expect(r.ok).toBe(true);
    });
  }

  it('held: a stray empty line after a hunk that ends with a context line', async () => {
    const r = await patchFile('a\nb\nc\n', '--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n\n');
    expect(r.ok).toBe(true);
    expect(r.after).toBe('a\nB\nc\n');
  });
});
