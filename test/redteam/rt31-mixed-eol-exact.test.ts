// rt31: "An exact substring match is a plain replacement" and "line endings (LF, CRLF, mixed) are kept".
// In a mixed-EOL file, an old_string that is byte-for-byte in the file (with the line ending the file has
// THERE) is converted to the file's dominant line ending first, misses, and is applied at the
// trailing_whitespace level instead: match_level is not "exact" and that line's ending is rewritten.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, runTool } from './rt31-harness.js';

afterEach(cleanupAll);

describe('rt31 exact substring in a mixed-EOL file', () => {
  const cases: Array<[string, string, string, string]> = [
    ['a\r\nb\r\nc\nd\r\n', 'c\nd', 'C\nD', 'a\r\nb\r\nC\nD\r\n'],
    ['a\nb\nc\r\nd\n', 'c\r\nd', 'C\r\nD', 'a\nb\nC\r\nD\n'],
    ['x\r\ny\r\nlet v = 1;\nz\r\n', 'v = 1;\nz', 'v = 2;\nz', 'x\r\ny\r\nlet v = 2;\nz\r\n'],
  ];
  for (const [file, old, nu, want] of cases) {
    it(`${JSON.stringify(file)}: ${JSON.stringify(old)} → ${JSON.stringify(nu)}`, async () => {
      expect(file.split(old).length).toBe(2);
      const r = await runTool(file, 'edit_file', { old_string: old, new_string: nu });
      expect(r.outcome.ok).toBe(true);
      expect(r.outcome.data.match_level).toBe('exact');
      expect(r.after).toBe(want);
    });
  }
});
