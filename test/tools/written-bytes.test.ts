import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replaceInText } from '../../src/edit/replace-in-text.js';
import { ok, project } from './fixture.js';

// Edits of an ASCII file write its unchanged ends straight from the bytes read (only the
// changed middle is encoded): what lands on disk must be the new text's UTF-8 exactly,
// whatever the new text holds (multi-byte characters, CRLF) and wherever the edit is.
const line = fc.constantFrom('}', '', '  x = 1;', 'say("hi");', 'x = 1;  ', '\tend', 'naïve → ok', 'ok');
const fileText = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 30 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, final]) => lines.join(eol) + (final ? eol : ''));

describe('what an edit writes is its new text, byte for byte', () => {
  it('edit_file on ASCII and non-ASCII files, exact and fuzzy matches', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileText,
        fc.nat(),
        fc.nat(),
        fc.constantFrom('', 'y = 2;', 'é€😀', 'a\nb', '}'),
        fc.boolean(),
        async (text, a, b, insert, trimmed) => {
          const from = a % text.length;
          const to = from + 1 + (b % Math.min(40, text.length - from));
          let oldString = text.slice(from, to);
          if (trimmed) oldString = oldString.replace(/[ \t]+(?=\r?\n|$)/g, '');
          const newString = `${oldString}${insert}`;
          const want = replaceInText(text, { oldString, newString, replaceAll: false });
          fc.pre(want.ok);
          const { dir, toolset } = project({ 'f.txt': text });
          const out = ok<{ sha256: string }>(
            await toolset.callTool('edit_file', {
              path: '/f.txt',
              old_string: oldString,
              new_string: newString,
            }),
          );
          const bytes = fs.readFileSync(path.join(dir, 'f.txt'));
          expect(bytes.equals(Buffer.from(want.ok ? want.newText : '', 'utf8'))).toBe(true);
          expect(out.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('patch_file and edit_lines inserting multi-byte text into an ASCII file', async () => {
    const text = `${Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n')}\n`;
    const { dir, toolset } = project({ 'f.txt': text });
    const sha = createHash('sha256').update(text).digest('hex');
    ok(
      await toolset.callTool('patch_file', {
        path: '/f.txt',
        unified_diff: '@@ -20,2 +20,3 @@\n line 19\n+naïve → 😀\n line 20\n',
        base_sha256: sha,
      }),
    );
    const lines = text.split('\n');
    lines.splice(20, 0, 'naïve → 😀');
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(lines.join('\n'));
    const read = ok<{ content: string }>(
      await toolset.callTool('read_file', { path: '/f.txt', hashes: true, offset: 40, limit: 1 }),
    );
    const anchor = read.content.split('|')[0]!;
    ok(
      await toolset.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: anchor, content: '€ tail' }],
      }),
    );
    const after = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8').split('\n');
    expect(after[39]).toBe('€ tail');
    expect(after.slice(0, 39)).toEqual(lines.slice(0, 39));
    expect(after.slice(40)).toEqual(lines.slice(40));
  });
});
