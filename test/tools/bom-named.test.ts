import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { project } from './fixture.js';

// A BOM is the first character of the file's first line. Requests that do not mention it leave
// it as the file has it; a request that names it (a `diff -u` of the file's bytes, an old_string
// copied with it) is read as written: the BOM is kept, added or removed as the request says,
// never doubled.

const BOM = '\uFEFF';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const line = fc.constantFrom('a', 'b', '}', '', 'x y');
const text = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.boolean())
  .map(([lines, newline, bom]) => (bom ? BOM : '') + lines.join('\n') + (newline ? '\n' : ''));

describe('a BOM the request names', () => {
  it('patch_file: a diff of the file bytes (BOM kept, added or removed) gives exactly the new bytes', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, fc.nat(3), async (before, after, context) => {
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
      }),
      { numRuns: 400 },
    );
  });

  it('edit_file: an old_string starting with the BOM is a plain replacement of the file bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.nat(8),
        fc.string({ maxLength: 6 }),
        fc.boolean(),
        async (raw, cut, tail, bom) => {
          const before = raw.startsWith(BOM) ? raw : BOM + raw;
          const oldString = before.slice(0, 2 + (cut % (before.length - 1)));
          const newString = (bom ? BOM : '') + tail;
          if (oldString === newString || before.indexOf(oldString, 1) !== -1) return;
          const { dir, toolset } = project({ 'f.txt': before });
          const out = await toolset.callTool('edit_file', {
            path: '/f.txt',
            old_string: oldString,
            new_string: newString,
          });
          const disk = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
          if (out.ok) expect(disk).toBe(newString + before.slice(oldString.length));
          else expect(disk).toBe(before);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('no edit tool turns a file with one BOM into one starting with two: it is refused instead', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.string({ maxLength: 4 }), async (raw, tail) => {
        const before = raw.startsWith(BOM) ? raw : BOM + raw;
        const first = before.slice(1).split('\n')[0]!;
        if (first === '') return;
        const { dir, toolset } = project({ 'f.txt': before });
        const out = await toolset.callTool('edit_file', {
          path: '/f.txt',
          old_string: first,
          new_string: BOM + first + tail,
        });
        const disk = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
        if (out.ok) expect(disk.startsWith(BOM + BOM)).toBe(false);
        else expect(disk).toBe(before);
      }),
      { numRuns: 200 },
    );
  });
});
