import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineHash } from '../../src/edit/line-hash.js';
import { read } from '../helpers/temp-project.js';
import { err, ok, project } from './fixture.js';

// Blank lines, lone braces and a repeated statement: anchors the model can only name by LINE#HASH.
const TEXT = [
  'function a() {',
  '  x = compute(1);',
  '}',
  '',
  'function b() {',
  '  x = compute(1);',
  '}',
  '',
  'const last = 1;',
  '',
].join('\n');

async function anchors(toolset: ReturnType<typeof project>['toolset']) {
  const content = String(ok(await toolset.callTool('read_file', { path: '/t.js', hashes: true })).content);
  return content.split('\n').map((l) => l.slice(0, l.indexOf('|')));
}

describe('edit_lines anchors confirmed by an unchanged file', () => {
  it('a LINE#HASH on a blank line, a lone } or a repeated line is exact while the file is as read', async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    const a = await anchors(toolset);
    const r = ok<{ auto_corrections: unknown[] }>(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [
          { op: 'insert_after', hash: a[2], content: '// after a' },
          { op: 'replace_line', hash: a[5], content: '  x = compute(2);' },
          { op: 'replace_line', hash: a[7], content: '// between' },
        ],
      }),
    );
    expect(r.auto_corrections).toEqual([]);
    const want = TEXT.split('\n');
    want.splice(7, 1, '// between');
    want.splice(5, 1, '  x = compute(2);');
    want.splice(3, 0, '// after a');
    expect(read(dir, 't.js')).toBe(want.join('\n'));
  });

  it('once the file changed since the read, blank and } anchors are refused; a repeated line needs its context', async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    const a = await anchors(toolset);
    fs.writeFileSync(path.join(dir, 't.js'), `// new first line\n${TEXT}`);
    for (const hash of [a[3], a[6]]) {
      const e = err(
        await toolset.callTool('edit_lines', {
          path: '/t.js',
          operations: [{ op: 'insert_after', hash, content: '// x' }],
        }),
      );
      expect(['anchor_low_entropy', 'anchor_ambiguous', 'anchor_context_ambiguous']).toContain(e.code);
    }
    expect(read(dir, 't.js')).toBe(`// new first line\n${TEXT}`);
    // A repeated line with letters is followed where its neighbours prove it is the one read.
    ok(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [{ op: 'replace_line', hash: a[1], content: '  x = compute(3);' }],
      }),
    );
    expect(read(dir, 't.js')).toBe(`// new first line\n${TEXT.replace('compute(1)', 'compute(3)')}`);
  });

  it('without a hashed read of the file, a blank-line anchor is not trusted', async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    const e = err(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [{ op: 'insert_after', hash: `4#${lineHash('')}`, content: '// x' }],
      }),
    );
    expect(['anchor_low_entropy', 'anchor_ambiguous']).toContain(e.code);
    expect(read(dir, 't.js')).toBe(TEXT);
  });

  it('a read shows each repeated line with its own anchor, so a bare anchor names that line', async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    const a = await anchors(toolset);
    expect(new Set(a.map((x) => x.split('#')[1])).size).toBe(a.length);
    ok(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [{ op: 'delete_line', hash: a[5]!.split('#')[1] }],
      }),
    );
    expect(read(dir, 't.js')).toBe(TEXT.replace('function b() {\n  x = compute(1);\n', 'function b() {\n'));
  });

  it("a repeated line's own (shared) hash, with no line number, stays ambiguous", async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    await anchors(toolset);
    const e = err(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [{ op: 'delete_line', hash: lineHash('  x = compute(1);') }],
      }),
    );
    expect(e.code).toBe('anchor_ambiguous');
    expect(read(dir, 't.js')).toBe(TEXT);
  });

  it('follows a hash unique in the file past a wrong line number, and reports the correction', async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    const a = await anchors(toolset);
    const hash = a[8]!.split('#')[1];
    const r = ok<{ auto_corrections: Array<{ type: string; detail: string; operation: number }> }>(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [
          { op: 'replace_line', hash: `3#${hash}`, content: 'const last = 2;' },
          { op: 'insert_before', hash: a[4]!.split('#')[1], line: 9, content: '// b follows' },
        ],
      }),
    );
    expect(r.auto_corrections).toEqual([
      { type: 'line_number_corrected', detail: expect.stringMatching(/line 9/), operation: 1 },
      { type: 'line_number_corrected', detail: expect.stringMatching(/line 5/), operation: 2 },
    ]);
    expect(read(dir, 't.js')).toBe(
      TEXT.replace('const last = 1;', 'const last = 2;').replace('function b', '// b follows\nfunction b'),
    );
  });

  it('a wrong line number next to the anchor of a repeated line still finds the line the read showed', async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    const a = await anchors(toolset);
    ok(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [{ op: 'replace_line', hash: `9#${a[1]!.split('#')[1]}`, content: '  y();' }],
      }),
    );
    expect(read(dir, 't.js')).toBe(TEXT.replace('  x = compute(1);', '  y();'));
  });
});
