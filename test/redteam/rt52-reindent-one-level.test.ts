// Red team rt52: when the matched lines show only one level, new lines nested deeper keep the
// model's width (2) in a file that steps by 4. With one level matched the request's unit is not
// known (one new line 6 deeper may be three levels of 2 or a shifted copy's one level of 4; the
// slip-fidelity cases hold both readings), so the tools shift and promise only the order: a line
// the request nests deeper is deeper in the file. That is what these check.
import { describe, expect, it } from 'vitest';
import { editFile, indentOf, lineWith, patchFile } from './rt52-helpers.js';

const file = 'def f():\n    if x:\n        a()\n    b()\n';

describe('rt52 re-indentation with a one-level match', () => {
  it('edit_file: `c()` nested under a new `if y:` stays deeper than it', async () => {
    const r = await editFile(file, '  a()', '  a()\n  if y:\n    c()');
    // written: "def f():\n    if x:\n        a()\n        if y:\n          c()\n    b()\n" (c() 2 deeper)
    if (r.ok) expect(indentOf(lineWith(r.out, 'c()'))).toBeGreaterThan(indentOf(lineWith(r.out, 'if y:')));
  });

  it('patch_file: same as a hunk whose context is one level', async () => {
    const diff = '--- a/f.txt\n+++ b/f.txt\n@@ -3 +3,3 @@\n   a()\n+  if y:\n+    c()\n';
    const r = await patchFile(file, diff);
    if (r.ok) expect(indentOf(lineWith(r.out, 'c()'))).toBeGreaterThan(indentOf(lineWith(r.out, 'if y:')));
  });
});
