import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { project } from './fixture.js';

// A file with no line end yet (empty, or one line without a newline) has no ending of its own to
// keep: the lines a diff adds end as the diff writes them (CRLF from a diff of CRLF text).

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const line = fc.constantFrom('a', 'b', '}', 'x y');

describe('patch_file on a file with no line end yet', () => {
  it('writes the diff’s own line endings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(line, { nil: '' }),
        fc.array(line, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        async (before, lines, eol, finalNewline) => {
          const after = lines.join(eol) + (finalNewline ? eol : '');
          if (before === after) return;
          const { dir, toolset } = project({ 'f.txt': before });
          const unified = createTwoFilesPatch('a/f.txt', 'b/f.txt', before, after);
          const out = await toolset.callTool('patch_file', {
            path: '/f.txt',
            unified_diff: unified,
            base_sha256: sha(before),
          });
          expect(out.ok).toBe(true);
          expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(after);
        },
      ),
      { numRuns: 200 },
    );
  });
});
