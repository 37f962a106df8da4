// Red team rt52: the BOM. read_file never shows the BOM, so a model that wants a BOM writes one at the
// start of its new text without naming it on the old side. On a file that already has one, the
// result holds two U+FEFF ("never doubled" broken). And an old side that names a BOM the file does
// not have is still matched (String#trim counts U+FEFF as whitespace) and the file gains a BOM.
import { describe, expect, it } from 'vitest';
import { editFile, patchFile } from './rt52-helpers.js';

const B = '\uFEFF';

describe('rt52 BOM', () => {
  it('edit_file (exact): new_string starting with the BOM on a BOM file does not double it', async () => {
    const r = await editFile(`${B}abc\n`, 'abc', `${B}abc`);
    // actual: ok, "\uFEFF\uFEFFabc\n"
    if (r.ok) expect(r.out).toBe(`${B}abc\n`);
  });

  it('edit_file (trailing_whitespace level): same, on a line-wise match', async () => {
    const r = await editFile(`${B}a  \nb\n`, 'a\nb', `${B}a\nc`);
    // actual: ok, "\uFEFF\uFEFFa\nc\n"
    if (r.ok) expect(r.out.startsWith(B + B)).toBe(false);
  });

  it('patch_file: a diff adding the BOM at line 1 of a BOM file does not double it', async () => {
    const r = await patchFile(
      `${B}abc\ndef\n`,
      `--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-abc\n+${B}abc\n def\n`,
    );
    // actual: ok, "\uFEFF\uFEFFabc\ndef\n"
    if (r.ok) expect(r.out).toBe(`${B}abc\ndef\n`);
  });

  it('edit_file: an old_string naming a BOM the file lacks is not matched to the bytes "abc"', async () => {
    const r = await editFile('abc\n', `${B}abc`, `${B}xyz`);
    // actual: ok at match_level "indentation", "\uFEFFxyz\n" — a BOM appears that neither side changes
    if (r.ok) expect(r.out).toBe('xyz\n');
  });

  it('patch_file: an old side naming a BOM the file lacks (GNU patch rejects it) does not add one', async () => {
    const r = await patchFile(
      'abc\ndef\n',
      `--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-${B}abc\n+${B}xyz\n def\n`,
    );
    // actual: ok, "\uFEFFxyz\ndef\n"
    if (r.ok) expect(r.out).toBe('xyz\ndef\n');
  });
});
