import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { project } from './fixture.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const text = (lines: string[], finalNewline: boolean) =>
  lines.length === 0 ? '' : lines.join('\n') + (finalNewline ? '\n' : '');

/** Whether the last hunk's new side ends with a line it adds (`+`), not a context line. */
function endsWithAdded(unified: string): boolean {
  const lines = unified.split('\n').filter((l) => l !== '' && !l.startsWith('\\'));
  for (let i = lines.length - 1; i >= 0 && !lines[i]!.startsWith('@@'); i--)
    if (!lines[i]!.startsWith('-')) return lines[i]!.startsWith('+');
  return false;
}

/** A text ending with a newline exactly when `ends`. */
const ending = (t: string, ends: boolean) =>
  ends ? (t.endsWith('\n') ? t : `${t}\n`) : t.replace(/\n$/, '');

describe('patch_file and "\\ No newline at end of file"', () => {
  // Diffs as the `diff` package writes them (markers where a side's last line has no newline).
  // A hunk whose new side ends with a line it adds says how that line ends: the file becomes the
  // new side exactly. Otherwise (the last line is context, or lies outside the hunk) the file
  // keeps its own final newline, as for every line a diff does not write.
  it('a diff that adds or drops the final newline does so; one that does not keeps the file’s', async () => {
    const line = fc.constantFrom('a', 'b', '}', '', 'x y');
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.nat(3),
        async (oldLines, newLines, oldEnds, newEnds, context) => {
          const before = text(oldLines, oldEnds);
          const after = text(newLines, newEnds);
          // An empty last line: "a\n" is "a" ended, or "a" and an empty unended line. Which one a
          // diff means is not settled here (left as the file has it); every other last line is.
          if (oldLines.at(-1) === '' || newLines.at(-1) === '' || before === after) return;
          const { dir, toolset } = project({ 'f.txt': before });
          const unified = createTwoFilesPatch('a/f.txt', 'b/f.txt', before, after, '', '', { context });
          const out = await toolset.callTool('patch_file', {
            path: '/f.txt',
            unified_diff: unified,
            base_sha256: sha(before),
          });
          const disk = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
          const expected = endsWithAdded(unified) ? after : ending(after, before.endsWith('\n'));
          if (out.ok) expect(disk).toBe(expected);
          else {
            expect(out.error.code).toBe('invalid_diff');
            expect(disk).toBe(before);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
