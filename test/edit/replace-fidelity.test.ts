import { describe, expect, it } from 'vitest';
import { replaceInText } from '../../src/edit/replace-in-text.js';

/** Runs edit_file's core and returns the new text (fails the test on a refusal). */
function edit(text: string, oldString: string, newString: string, replaceAll = false) {
  const r = replaceInText(text, { oldString, newString, replaceAll });
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r;
}

describe('edit_file keeps the file bytes of every line the request leaves unchanged', () => {
  it('trailing whitespace the request lost stays on unchanged lines (Markdown hard breaks)', () => {
    const text = 'Roses are red,  \nviolets are blue,  \nsugar is sweet\n';
    const r = edit(
      text,
      'Roses are red,\nviolets are blue,\nsugar is sweet',
      'Roses are red,\nviolets are blue,\nhoney is sweet',
    );
    expect(r.matchLevel).toBe('trailing_whitespace');
    expect(r.newText).toBe('Roses are red,  \nviolets are blue,  \nhoney is sweet\n');
  });

  it('an exact hit that stops before trailing whitespace is a whole-line edit', () => {
    const text = 'a = 1;\nb = 2;   \nc = 3;\n';
    // The unchanged last line keeps its trailing spaces; a changed last line is the request's text.
    expect(edit(text, 'a = 1;\nb = 2;', 'a = 10;\nb = 2;').newText).toBe('a = 10;\nb = 2;   \nc = 3;\n');
    expect(edit(text, 'a = 1;\nb = 2;', 'a = 1;\nb = 20;').newText).toBe('a = 1;\nb = 20;\nc = 3;\n');
  });

  it('indentation drift: unchanged lines are the file lines, added ones are re-indented', () => {
    const text = 'class A {\n    run() {\n        step(1);  \n        step(2);\n    }\n}\n';
    const r = edit(
      text,
      'run() {\n    step(1);\n    step(2);\n}',
      'run() {\n    step(1);\n    step(1.5);\n    step(2);\n}',
    );
    expect(r.matchLevel).toBe('indentation');
    expect(r.newText).toBe(
      'class A {\n    run() {\n        step(1);  \n        step(1.5);\n        step(2);\n    }\n}\n',
    );
  });

  it('tabs in the file, spaces in the request: unchanged lines keep their tabs, new lines get tabs', () => {
    const text = 'function f() {\n\tif (x) {\n\t\ty();\n\t}\n}\n';
    const r = edit(text, '  if (x) {\n    y();\n  }', '  if (x) {\n    y();\n    z();\n  }');
    expect(r.newText).toBe('function f() {\n\tif (x) {\n\t\ty();\n\t\tz();\n\t}\n}\n');
  });

  it('a line the request re-indents on purpose is a change, not an unchanged line', () => {
    const text = 'a();  \nb();\n';
    const r = edit(text, 'a();\nb();', 'if (ok) {\n  a();\n}\nb();');
    expect(r.newText).toBe('if (ok) {\n  a();\n}\nb();\n');
  });

  it('typographic quotes the request introduced are written in the file form (ASCII) on changed lines', () => {
    const text = 'log({\n  source: \'react-devtools\',\n  level: "info",\n});\n';
    const r = edit(
      text,
      'source: \u2018react-devtools\u2019,\nlevel: \u201cinfo\u201d,',
      'source: \u2018react-devtools-logging\u2019,\nlevel: \u201cinfo\u201d,',
    );
    expect(r.matchLevel).toBe('unicode');
    expect(r.newText).toBe('log({\n  source: \'react-devtools-logging\',\n  level: "info",\n});\n');
  });

  it('keeps typographic characters of classes the file region itself uses, and those the request did not slip', () => {
    const text = "say('Don\u2019t');\nx = 1;\n";
    // The request copied the quote right, so its new ’ stays.
    const r = edit(text, "say('Don\u2019t');\nx = 1;", "say('Won\u2019t');\nx = 1;");
    expect(r.newText).toBe("say('Won\u2019t');\nx = 1;\n");
    // A request that curled a quote the file has in both forms is refused: the intent is unknowable.
    const lines = replaceInText(text, {
      oldString: 'say(\u2018Don\u2019t\u2019);\nx = 1;',
      newString: 'say(\u2018Won\u2019t\u2019);\nx = 1;',
      replaceAll: false,
    });
    expect(lines).toMatchObject({ ok: false, code: 'invalid_argument' });
    if (!lines.ok) expect(lines.message).toMatch(/single quotes/);
  });

  it('dashes and non-breaking spaces slipped into the request come back as the file has them', () => {
    const text = 'a - b;\nx = 1;\n';
    const r = edit(text, 'a \u2013 b;\nx\u00a0= 1;', 'a \u2013 b;\nx\u00a0= 2;');
    expect(r.newText).toBe('a - b;\nx = 2;\n');
  });

  it('a line the request moves keeps the file bytes', () => {
    const text = 'one();  \ntwo();\nthree();\n';
    const r = edit(text, 'one();\ntwo();\nthree();', 'two();\none();\nthree();');
    expect(r.newText).toBe('two();\none();  \nthree();\n');
  });

  it('keeps CRLF (per line) and the missing final newline at every level', () => {
    const text = 'a;  \r\nb;\r\nc;';
    expect(edit(text, 'a;\nb;\nc;', 'a;\nB;\nc;').newText).toBe('a;  \r\nB;\r\nc;');
    expect(edit(text, 'a;\nb;\nc;', 'a;\nb;\nc;\nd;').newText).toBe('a;  \r\nb;\r\nc;\r\nd;');
    const mixed = 'a;  \nb;\r\nc;\n';
    expect(edit(mixed, 'a;\nb;', 'a;\nb;\nb2;').newText).toBe('a;  \nb;\r\nb2;\nc;\n');
  });

  it('an exact match is a plain replacement: deleting the text of a line leaves its line end', () => {
    expect(edit('a\nfoo\nb\n', 'foo', '').newText).toBe('a\n\nb\n');
    expect(edit('a\nfoo\nb\n', 'foo\n', '').newText).toBe('a\nb\n');
    expect(edit('a\nfoo', 'foo', '').newText).toBe('a\n');
  });

  it('a fuzzy match deletes whole lines with their line ends; at the end of a file without final newline it stays so', () => {
    expect(edit('a\nfoo  \r\nbar', 'foo\nbar', '').newText).toBe('a');
    expect(edit('a\nfoo \nb\n', 'foo', '').newText).toBe('a\nb\n');
  });

  it('an exact mid-line match is not re-indented, and a final newline in new_string is kept', () => {
    // Plain str-replace semantics: valid Python stays valid.
    expect(edit('def f():\n    x = 1\n', 'x = 1', 'x = 1\n    y = 2').newText).toBe(
      'def f():\n    x = 1\n    y = 2\n',
    );
    expect(edit('a\nb\nc\n', 'b\n', 'b\n\n').newText).toBe('a\nb\n\nc\n');
  });

  it('substring edits inside a line stay substring edits', () => {
    expect(edit('call(a, b);\n', 'a, b', 'b, a').newText).toBe('call(b, a);\n');
    expect(edit('x = 1;  // note\n', 'x = 1;', 'x = 2;').newText).toBe('x = 2;  // note\n');
  });

  it('replace_all applies the rule to every block with its own bytes', () => {
    const text = 'f(1);  \ng();\nf(1);\t\ng();\n';
    const r = edit(text, 'f(1);\ng();', 'f(1);\ng(2);', true);
    expect(r.replacements).toBe(2);
    expect(r.newText).toBe('f(1);  \ng(2);\nf(1);\t\ng(2);\n');
  });

  it('replace_all with overlapping fuzzy matches takes them left to right, as the exact level does', () => {
    // Five overlapping 3-line windows; greedy from the left takes lines 1-3 and 4-6. Short lines
    // (no rare run: the line-table path) and long ones (found through the text) alike.
    for (const line of ['x', 'step_forward();']) {
      const text = `${Array.from({ length: 7 }, () => `${line} `).join('\n')}\n`;
      const exact = edit(text, `${line} \n${line} \n${line} `, 'y', true);
      const fuzzy = edit(text, `${line}\n${line}\n${line}`, 'y', true);
      expect(exact.replacements).toBe(2);
      expect(fuzzy.replacements).toBe(2);
      expect(fuzzy.matchLines).toEqual([1, 4]);
      expect(fuzzy.newText).toBe(`y\ny\n${line} \n`);
    }
  });

  it('large blocks: unrelated new text, and lines moved around, still keep the file bytes', () => {
    const n = 2_000;
    const fileLines = Array.from({ length: n }, (_, i) => `  line_${i}(); `);
    const text = `${fileLines.join('\n')}\n`;
    const copied = fileLines.map((l) => l.trimEnd());
    const fresh = copied.map((_, i) => `  other_${i}();`);
    expect(edit(text, copied.join('\n'), fresh.join('\n')).newText).toBe(`${fresh.join('\n')}\n`);
    // Reversed: every line is a moved line (whether or not the alignment finishes in time).
    const reversed = edit(text, copied.join('\n'), [...copied].reverse().join('\n'));
    expect(reversed.newText).toBe(`${[...fileLines].reverse().join('\n')}\n`);
  });
});

describe('deleting (fuzzy match) the last line of a file without a final newline', () => {
  // Found by the slip property test: with the deleted line on line 2, the line before is the
  // file's first, and the "no final newline" must move onto it like anywhere else.
  it.each([
    ['\n// note', ''],
    ['a\n// note', 'a'],
    ['\n\n// note', '\n'],
    ['a\n\n// note', 'a\n'],
    ['\r\n// note', ''],
  ])('%j → %j', (text, want) => {
    expect(edit(text, '// note ', '').newText).toBe(want);
  });
});
