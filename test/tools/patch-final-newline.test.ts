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

describe('patch_file and "\\ No newline at end of file"', () => {
  // Diffs as the `diff` package writes them (markers where a side's last line has no newline), read
  // as `patch` reads them: the new side's last line, added or context, is terminated unless marked,
  // so the file becomes the new side exactly, empty last lines included.
  it('a diff that adds or drops the final newline does so, whatever the last line is', async () => {
    const line = fc.constantFrom('a', 'b', '}', '', 'x y');
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 0, maxLength: 8 }),
        fc.array(line, { minLength: 0, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.nat(3),
        async (oldLines, newLines, oldEnds, newEnds, context) => {
          const before = text(oldLines, oldEnds);
          const after = text(newLines, newEnds);
          if (before === after) return;
          const { dir, toolset } = project({ 'f.txt': before });
          const unified = createTwoFilesPatch('a/f.txt', 'b/f.txt', before, after, '', '', { context });
          const out = await toolset.callTool('patch_file', {
            path: '/f.txt',
            unified_diff: unified,
            base_sha256: sha(before),
          });
          const disk = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
          if (out.ok) expect(disk).toBe(after);
          else {
            expect(out.error.code).toBe('invalid_diff');
            expect(disk).toBe(before);
          }
        },
      ),
      { numRuns: 600 },
    );
  });
});
