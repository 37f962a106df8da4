// rt31: "replace_all replaces every non-overlapping match" — at a line-wise (fuzzy) level, a run of overlapping
// windows (a a a a, matched by "a \na") must give 2 replacements, as the exact level does for "a\na".
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, runTool } from './rt31-harness.js';

afterEach(cleanupAll);

describe('rt31 replace_all at a fuzzy level: every non-overlapping match', () => {
  const cases: Array<[string, string, string, string, number]> = [
    // exact level, for comparison (holds)
    ['a\na\na\na\n', 'a\na', 'X', 'X\nX\n', 2],
    // trailing_whitespace level
    ['a\na\na\na\n', 'a \na', 'X', 'X\nX\n', 2],
    ['a\na\na\na\na\na\n', 'a \na', 'X', 'X\nX\nX\n', 3],
    // indentation level
    ['}\n}\n}\n}\n', '  }\n  }', 'Y', 'Y\nY\n', 2],
    // unicode level
    ["x='1'\nx='1'\nx='1'\n", 'x=‘1’\nx=‘1’', 'Z', "Z\nx='1'\n", 1],
    ["x='1'\nx='1'\nx='1'\nx='1'\n", 'x=‘1’\nx=‘1’', 'Z', 'Z\nZ\n', 2],
  ];
  for (const [file, old, nu, want, n] of cases) {
    it(`${JSON.stringify(file)} ${JSON.stringify(old)} → ${JSON.stringify(nu)}`, async () => {
      const r = await runTool(file, 'edit_file', { old_string: old, new_string: nu, replace_all: true });
      expect(r.outcome.ok).toBe(true);
      expect(r.after).toBe(want);
      expect(r.outcome.data.replacements_made).toBe(n);
    });
  }
});
