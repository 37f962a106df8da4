import { describe, expect, it } from 'vitest';
import { fixUnifiedDiff } from '../../src/edit/fix-unified-diff.js';

function patch(text: string, lines: string[]) {
  const r = fixUnifiedDiff(text, ['--- a/f', '+++ b/f', '@@ -1,3 +1,3 @@', ...lines, ''].join('\n'));
  if (!r.ok) throw new Error(r.message);
  return r.newText;
}

describe('patch_file keeps the file bytes of every line the hunk leaves unchanged', () => {
  it('context lines keep trailing whitespace and CRLF the hunk lost', () => {
    const text = 'a();  \r\nb();\r\nc();\t\r\n';
    expect(patch(text, [' a();', '-b();', '+B();', ' c();'])).toBe('a();  \r\nB();\r\nc();\t\r\n');
  });

  it('a line removed and added back as it was (with the same slip) is the file line', () => {
    const text = 'a();  \nb();\nc();\n';
    expect(patch(text, ['-a();', '-b();', '+a();', '+B();', ' c();'])).toBe('a();  \nB();\nc();\n');
  });

  it('added lines take the file form of typographic quotes the hunk slipped in', () => {
    const text = 'x = \'a\';\ny = "b";\n';
    const out = patch(text, [' x = \u2018a\u2019;', '-y = \u201cb\u201d;', '+y = \u201cc\u201d;']);
    expect(out).toBe('x = \'a\';\ny = "c";\n');
  });

  it('re-indents added lines for a drifted hunk while context keeps its tabs', () => {
    const text = 'f() {\n\tif (x) {\n\t\ty();\n\t}\n}\n';
    expect(patch(text, ['   if (x) {', '     y();', '+    z();', '   }'])).toBe(
      'f() {\n\tif (x) {\n\t\ty();\n\t\tz();\n\t}\n}\n',
    );
  });

  it('refuses (invalid_diff, nothing applied) when the quote form of the added lines is unknowable', () => {
    const text = "say('Don\u2019t');\nx = 1;\n";
    const r = fixUnifiedDiff(
      text,
      '@@ -1,2 +1,2 @@\n-say(\u2018Don\u2019t\u2019);\n+say(\u2018Won\u2019t\u2019);\n x = 1;\n',
    );
    expect(r).toMatchObject({
      ok: false,
      code: 'invalid_diff',
      details: { reason: 'unclear_change', hunk: 1 },
    });
  });
});
