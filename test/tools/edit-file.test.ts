import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { err, ok, project } from './fixture.js';

describe('edit_file', () => {
  it('replaces a unique match and returns a compact diff', async () => {
    const { dir, toolset } = project({ 'a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
    const r = ok(
      await toolset.callTool('edit_file', {
        path: '/a.ts',
        old_string: 'const b = 2;',
        new_string: 'const b = 20;',
      }),
    );
    expect(r).toMatchObject({ path: '/a.ts', replacements_made: 1, match_level: 'exact' });
    expect(r.diff).toContain('-const b = 2;');
    expect(r.diff).toContain('+const b = 20;');
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe(
      'const a = 1;\nconst b = 20;\nconst c = 3;\n',
    );
  });

  it('refuses an ambiguous match with every line number, changing nothing', async () => {
    const text = 'x = 1\ny = 2\nx = 1\n';
    const { dir, toolset } = project({ 'a.py': text });
    const e = err(
      await toolset.callTool('edit_file', { path: '/a.py', old_string: 'x = 1', new_string: 'x = 9' }),
    );
    expect(e.code).toBe('edit_not_unique');
    expect(e.message).toMatch(/1.*3/);
    expect(fs.readFileSync(path.join(dir, 'a.py'), 'utf8')).toBe(text);
    const all = ok(
      await toolset.callTool('edit_file', {
        path: '/a.py',
        old_string: 'x = 1',
        new_string: 'x = 9',
        replace_all: true,
      }),
    );
    expect(all.replacements_made).toBe(2);
  });

  it('explains a miss with the line count and the closest region', async () => {
    const { toolset } = project({ 'a.ts': 'function greet(name) {\n  return "hi " + name;\n}\n' });
    const e = err(
      await toolset.callTool('edit_file', {
        path: '/a.ts',
        old_string: 'return "hello " + name;',
        new_string: 'x',
      }),
    );
    expect(e.code).toBe('edit_not_found');
    expect(e.message).toContain('/a.ts');
    expect(e.message).toMatch(/3 lines|line 2/);
  });

  it('keeps CRLF, BOM and a missing final newline byte-exact', async () => {
    const original = '\uFEFFalpha\r\nbeta\r\ngamma';
    const { dir, toolset } = project({ 'w.txt': original });
    ok(await toolset.callTool('edit_file', { path: '/w.txt', old_string: 'beta', new_string: 'BETA\nmore' }));
    expect(fs.readFileSync(path.join(dir, 'w.txt'), 'utf8')).toBe('\uFEFFalpha\r\nBETA\r\nmore\r\ngamma');
  });

  it('treats $& and $1 in new_string literally', async () => {
    const { dir, toolset } = project({ 'a.txt': 'price: X\n' });
    ok(await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'X', new_string: '$& $1 $$' }));
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('price: $& $1 $$\n');
  });

  it('matches through indentation drift and re-indents the new text', async () => {
    const { dir, toolset } = project({ 'a.py': 'def f():\n    if x:\n        return 1\n' });
    const r = ok(
      await toolset.callTool('edit_file', {
        path: '/a.py',
        old_string: 'if x:\n    return 1',
        new_string: 'if x:\n    return 2',
      }),
    );
    expect(r.match_level).toBe('indentation');
    expect(fs.readFileSync(path.join(dir, 'a.py'), 'utf8')).toBe('def f():\n    if x:\n        return 2\n');
  });

  it('applies 50 parallel edits on distinct tokens of one file without losing any', async () => {
    const tokens = Array.from({ length: 50 }, (_, i) => `token_${String(i).padStart(2, '0')}`);
    const { dir, toolset } = project({ 'many.txt': `${tokens.join('\n')}\n` });
    const outcomes = await Promise.all(
      tokens.map((t) =>
        toolset.callTool('edit_file', { path: '/many.txt', old_string: t, new_string: `${t}_done` }),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(50);
    const final = fs.readFileSync(path.join(dir, 'many.txt'), 'utf8');
    for (const t of tokens) expect(final).toContain(`${t}_done\n`);
    console.log(`parallel edit_file: ${outcomes.filter((o) => o.ok).length}/50 applied`);
  });

  it('writes the file bytes of unchanged lines and the file form of slipped quotes; refuses an unclear form', async () => {
    const text = "log({  \r\n  source: 'devtools',\r\n  level: 1,\t\r\n});\r\n";
    const { dir, toolset } = project({ 'l.js': text });
    const r = ok(
      await toolset.callTool('edit_file', {
        path: '/l.js',
        old_string: 'log({\n  source: \u2018devtools\u2019,\n  level: 1,',
        new_string: 'log({\n  source: \u2018devtools-logging\u2019,\n  level: 1,',
      }),
    );
    expect(r.match_level).toBe('unicode');
    expect(fs.readFileSync(path.join(dir, 'l.js'), 'utf8')).toBe(
      "log({  \r\n  source: 'devtools-logging',\r\n  level: 1,\t\r\n});\r\n",
    );
    const mixed = "say('Don\u2019t');\n";
    const { dir: d2, toolset: t2 } = project({ 'm.js': mixed });
    const e = err(
      await t2.callTool('edit_file', {
        path: '/m.js',
        old_string: 'say(\u2018Don\u2019t\u2019);',
        new_string: 'say(\u2018Won\u2019t\u2019);',
      }),
    );
    expect(e.code).toBe('invalid_argument');
    expect(e.message).toMatch(/\/m\.js: .*single quotes/);
    expect(fs.readFileSync(path.join(d2, 'm.js'), 'utf8')).toBe(mixed);
  });
});
