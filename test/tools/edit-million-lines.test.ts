import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { err, ok, project } from './fixture.js';

/**
 * Inserting a million lines goes through every edit tool's line-array code
 * (splices of split lines): none may overflow the stack (an array spread into
 * call arguments does past ~125k items) or report an io_error.
 */
const N = 1_000_000;
const BIG = Array.from({ length: N }, (_, i) => `row ${i}`);
const FILE = 'alpha\nbeta\ngamma\n';
const expected = `alpha\nbeta\n${BIG.join('\n')}\ngamma\n`;

function check(dir: string) {
  const text = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
  expect(text.length).toBe(expected.length);
  expect(text === expected).toBe(true);
}

describe('a million inserted lines through every edit tool', () => {
  it('edit_file, exact whole-line match', async () => {
    const { dir, toolset } = project({ 'f.txt': FILE });
    ok(
      await toolset.callTool('edit_file', {
        path: '/f.txt',
        old_string: 'beta\n',
        new_string: `beta\n${BIG.join('\n')}\n`,
      }),
    );
    check(dir);
  });

  it('edit_file, fuzzy (trailing whitespace) match', async () => {
    const { dir, toolset } = project({ 'f.txt': FILE });
    const data = ok(
      await toolset.callTool('edit_file', {
        path: '/f.txt',
        old_string: 'beta  \ngamma',
        new_string: `beta\n${BIG.join('\n')}\ngamma`,
      }),
    );
    expect(data.match_level).toBe('trailing_whitespace');
    check(dir);
  });

  it('edit_lines insert_after', async () => {
    const { dir, toolset } = project({ 'f.txt': FILE });
    const read = String(ok(await toolset.callTool('read_file', { path: '/f.txt', hashes: true })).content);
    const anchor = read.split('\n')[1]!.split('|')[0]!;
    const data = ok(
      await toolset.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'insert_after', hash: anchor, content: BIG.join('\n') }],
      }),
    );
    check(dir);
    // The model gets the ends of the block with fresh anchors and a count of the rest, not a million lines.
    const diff = String(data.diff).split('\n');
    expect(diff.length).toBeLessThan(300);
    expect(diff).toContain(
      `+… ${N - 200} more added lines (lines 103–${N - 100 + 2}; read_file gives their anchors) …`,
    );
    expect(diff.some((l) => /^\+3#[0-9a-f]+\|row 0$/.test(l))).toBe(true);
    expect(diff.some((l) => l.startsWith(`+${N + 2}#`) && l.endsWith(`|row ${N - 1}`))).toBe(true);
  });

  it('patch_file adding a million lines', async () => {
    const { dir, toolset } = project({ 'f.txt': FILE });
    const diff = `--- a/f.txt\n+++ b/f.txt\n@@ -2,2 +2,${N + 2} @@\n beta\n${BIG.map((l) => `+${l}`).join('\n')}\n gamma\n`;
    ok(
      await toolset.callTool('patch_file', {
        path: '/f.txt',
        unified_diff: diff,
        base_sha256: createHash('sha256').update(FILE).digest('hex'),
      }),
    );
    check(dir);
  });

  it('refuses, without crashing, a result over the size limit', async () => {
    const { dir, toolset } = project({ 'f.txt': FILE }, { maxFileBytes: 1_000_000 });
    const e = err(
      await toolset.callTool('edit_file', {
        path: '/f.txt',
        old_string: 'beta\n',
        new_string: `beta\n${BIG.join('\n')}\n`,
      }),
    );
    expect(e.code).not.toBe('io_error');
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(FILE);
  });
});
