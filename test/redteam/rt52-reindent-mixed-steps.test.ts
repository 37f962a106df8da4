// Red team rt52: re-indentation in a file whose steps are mixed (4 spaces, then 2 — legal Python).
// The model's copy steps uniformly by 2. No single scale maps the matched indentation, and the
// fallback puts a new line the model nested one level deeper at its parent's depth: `if x:` then
// `return 2` at the same column, an IndentationError, written without a word.
import { describe, expect, it } from 'vitest';
import { editFile, indentOf, lineWith, patchFile } from './rt52-helpers.js';

const file = 'class A:\n    def f(self):\n      return 1\n';
// model's copy (2 a level):  class A: / def f(self): / return 1   at 0 / 2 / 4
const expectedNested = (out: string) => {
  const ifLine = lineWith(out, 'if x:');
  const ret2 = lineWith(out, 'return 2');
  const ret1 = lineWith(out, 'return 1');
  // nesting kept: return 2 is deeper than `if x:`; `if x:` sits where `return 1` sits
  expect(indentOf(ret2)).toBeGreaterThan(indentOf(ifLine));
  expect(indentOf(ifLine)).toBe(indentOf(ret1));
};

describe('rt52 re-indentation keeps nesting in a mixed-step file', () => {
  it('edit_file: a new line nested under a new `if` is not flattened onto it', async () => {
    const r = await editFile(
      file,
      'class A:\n  def f(self):\n    return 1',
      'class A:\n  def f(self):\n    if x:\n      return 2\n    return 1',
    );
    // actual: ok, "class A:\n    def f(self):\n      if x:\n      return 2\n      return 1\n"
    if (r.ok) expectedNested(r.out);
  });

  it('patch_file: same change as a hunk with context', async () => {
    const diff =
      '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,5 @@\n class A:\n   def f(self):\n+    if x:\n+      return 2\n     return 1\n';
    const r = await patchFile(file, diff);
    // actual: ok, "class A:\n    def f(self):\n      if x:\n      return 2\n      return 1\n"
    if (r.ok) expectedNested(r.out);
  });
});
