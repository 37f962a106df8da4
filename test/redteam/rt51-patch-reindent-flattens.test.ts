import { describe, expect, it } from 'vitest';
import { patchFile } from './rt51-helpers.js';

// patch_file, indentation drift: the diff was written against a 2-space copy of a 4-space file. Its added
// lines nest `return 2` under `if x:`. Docs: added lines are re-indented to the file's. Actual: ok, and
// `return 2` is written at the same depth as `if x:` — the nesting the diff's author wrote is lost.
const indentOf = (line: string): number => line.length - line.trimStart().length;

describe('rt51: patch_file re-indentation keeps the nesting of added lines', () => {
  const cases: Array<[string, string, string]> = [
    [
      'one removed line, an if-block added',
      'def f():\n    return 1\n',
      '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n def f():\n-  return 1\n+  if x:\n+    return 2\n',
    ],
    [
      'with an indented context line',
      'def f():\n    a = 1\n    return 1\n',
      '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,4 @@\n def f():\n   a = 1\n-  return 1\n+  if x:\n+    return 2\n',
    ],
  ];
  for (const [name, file, diff] of cases) {
    it(name, async () => {
      const r = await patchFile(file, diff);
      if (!r.ok) {
        expect(r.code).toBe('invalid_diff');
        expect(r.after).toBe(file);
        return;
      }
      const lines = r.after.split('\n');
      const ifLine = lines.find((l) => l.trim() === 'if x:')!;
      const retLine = lines.find((l) => l.trim() === 'return 2')!;
      // actual: '    if x:' and '    return 2'
      expect(indentOf(retLine)).toBeGreaterThan(indentOf(ifLine));
    });
  }
});
