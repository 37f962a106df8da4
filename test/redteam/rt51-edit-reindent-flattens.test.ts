import { describe, expect, it } from 'vitest';
import { editFile } from './rt51-helpers.js';

// edit_file, indentation level: the model's copy uses 2-space indentation, the file 4. new_string nests
// `return 2` one level under `if x:`. Re-indented "to the file's indentation", the nesting must survive
// (or the edit be refused). Actual: ok, match_level 'indentation', and `return 2` lands at the same depth
// as `if x:` — the block structure is silently flattened (a Python syntax error / changed meaning).
const indentOf = (line: string): number => line.length - line.trimStart().length;

describe('rt51: edit_file re-indentation keeps the nesting of added lines', () => {
  const cases: Array<[string, string, string, string]> = [
    [
      'one changed line becomes an if-block',
      'def f():\n    return 1\n',
      'def f():\n  return 1',
      'def f():\n  if x:\n    return 2',
    ],
    [
      'with an unchanged line before it',
      'def f():\n    a = 1\n    return 1\n',
      'def f():\n  a = 1\n  return 1',
      'def f():\n  a = 1\n  if x:\n    return 2',
    ],
  ];
  for (const [name, file, oldS, newS] of cases) {
    it(name, async () => {
      const r = await editFile(file, { old_string: oldS, new_string: newS });
      if (!r.ok) {
        expect(r.after).toBe(file);
        return;
      }
      const lines = r.after.split('\n');
      const ifLine = lines.find((l) => l.trim() === 'if x:')!;
      const retLine = lines.find((l) => l.trim() === 'return 2')!;
      // actual: '    if x:' and '    return 2'
      expect(indentOf(retLine)).toBeGreaterThan(indentOf(ifLine));
      expect(indentOf(ifLine)).toBe(4);
    });
  }
});
