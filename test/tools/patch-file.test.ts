import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMPTY_SHA256 } from '../../src/tools/file-state.js';
import { read } from '../helpers/temp-project.js';
import { err, ok, project } from './fixture.js';

const FILE = [
  'import a from "a";',
  '',
  'function one() {',
  '  return 1;',
  '}',
  '',
  'function two() {',
  '  return 2;',
  '}',
  '',
].join('\n');

async function base(toolset: ReturnType<typeof project>['toolset'], p = '/f.ts') {
  return String(ok(await toolset.callTool('read_file', { path: p })).sha256);
}

describe('patch_file', () => {
  it('applies a correct diff and returns latest_file_state with content', async () => {
    const { dir, toolset } = project({ 'f.ts': FILE });
    const diff =
      '--- a/f.ts\n+++ b/f.ts\n@@ -7,3 +7,3 @@\n function two() {\n-  return 2;\n+  return 22;\n }\n';
    const r = ok(
      await toolset.callTool('patch_file', {
        path: '/f.ts',
        unified_diff: diff,
        base_sha256: await base(toolset),
      }),
    );
    expect(r).toMatchObject({ success: true, relocated: false, hunks: 1 });
    expect(read(dir, 'f.ts')).toBe(FILE.replace('return 2;', 'return 22;'));
    const state = r.latest_file_state as { sha256: string; content: string; version: number };
    expect(state.content).toBe(read(dir, 'f.ts'));
    expect(state.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('fixes wrong @@ numbers, wrong counts and missing blank-line spaces, and says it relocated', async () => {
    const { dir, toolset } = project({ 'f.ts': FILE });
    const diff =
      '@@ -40,9 +40,2 @@\n function one() {\n-  return 1;\n+  return 11;\n }\n\n function two() {\n';
    const r = ok(
      await toolset.callTool('patch_file', {
        path: '/f.ts',
        unified_diff: diff,
        base_sha256: await base(toolset),
      }),
    );
    expect(r.relocated).toBe(true);
    expect(read(dir, 'f.ts')).toBe(FILE.replace('return 1;', 'return 11;'));
  });

  it('refuses a stale base with state_mismatch and the latest state', async () => {
    const { dir, toolset } = project({ 'f.ts': FILE });
    const sha = await base(toolset);
    fs.writeFileSync(path.join(dir, 'f.ts'), `${FILE}// changed\n`);
    const e = err(
      await toolset.callTool('patch_file', {
        path: '/f.ts',
        unified_diff: '@@ @@\n-  return 1;\n+  return 3;\n',
        base_sha256: sha,
      }),
    );
    expect(e.code).toBe('state_mismatch');
    expect((e.details?.latest_file_state as { content: string }).content).toContain('// changed');
    expect(read(dir, 'f.ts')).toBe(`${FILE}// changed\n`);
  });

  it('refuses a hunk it cannot find, naming the hunk and the nearest candidate', async () => {
    const { dir, toolset } = project({ 'f.ts': FILE });
    const diff = '@@ -3,3 +3,3 @@\n function one() {\n-  return 100;\n+  return 1000;\n }\n';
    const e = err(
      await toolset.callTool('patch_file', {
        path: '/f.ts',
        unified_diff: diff,
        base_sha256: await base(toolset),
      }),
    );
    expect(e.code).toBe('invalid_diff');
    expect(e.message).toMatch(/Hunk 1/);
    expect(e.details).toMatchObject({ hunk: 1, reason: 'not_found' });
    expect((e.details?.candidates as unknown[]).length).toBeGreaterThan(0);
    expect(read(dir, 'f.ts')).toBe(FILE);
  });

  it('refuses an ambiguous hunk instead of guessing, and hunks out of order', async () => {
    const { toolset } = project({ 'f.ts': FILE });
    const sha = await base(toolset);
    const ambiguous = err(
      await toolset.callTool('patch_file', {
        path: '/f.ts',
        unified_diff: '@@ @@\n }\n+// after a closing brace\n',
        base_sha256: sha,
      }),
    );
    expect(ambiguous.details).toMatchObject({ reason: 'ambiguous' });
    const outOfOrder =
      '@@ @@\n function two() {\n-  return 2;\n+  return 22;\n@@ @@\n function one() {\n-  return 1;\n+  return 11;\n';
    const e = err(
      await toolset.callTool('patch_file', { path: '/f.ts', unified_diff: outOfOrder, base_sha256: sha }),
    );
    expect(e.details).toMatchObject({ hunk: 2, reason: 'out_of_order' });
  });

  it('creates a file from the empty-content hash', async () => {
    const { dir, toolset } = project();
    ok(
      await toolset.callTool('patch_file', {
        path: '/new/x.txt',
        unified_diff: '@@ -0,0 +1,2 @@\n+hello\n+world\n',
        base_sha256: EMPTY_SHA256,
      }),
    );
    expect(read(dir, 'new/x.txt')).toBe('hello\nworld\n');
  });

  it('keeps CRLF and BOM, and re-indents added lines when the diff lost indentation', async () => {
    const text = '\uFEFFclass A {\r\n    run() {\r\n        go();\r\n    }\r\n}\r\n';
    const { dir, toolset } = project({ 'a.ts': text });
    const diff = '@@ @@\n run() {\n-    go();\n+    go();\n+    stop();\n }\n';
    ok(
      await toolset.callTool('patch_file', {
        path: '/a.ts',
        unified_diff: diff,
        base_sha256: await base(toolset, '/a.ts'),
      }),
    );
    expect(read(dir, 'a.ts')).toBe(
      '\uFEFFclass A {\r\n    run() {\r\n        go();\r\n        stop();\r\n    }\r\n}\r\n',
    );
  });

  it('offers a typed patch payload with the corrected diff', async () => {
    const { toolset } = project({ 'f.ts': FILE });
    const sha = await base(toolset);
    const result = await toolset.needsApproval('patch_file', {
      path: '/f.ts',
      unified_diff: '@@ -99 +99 @@\n-  return 2;\n+  return 3;\n',
      base_sha256: sha,
    });
    expect(result).toMatchObject({
      status: 'needs_approval',
      payload: { type: 'patch', relocated: true, hunks: 1, added: 1, removed: 1, baseSha256: sha },
    });
    expect(
      result.status === 'needs_approval' && result.payload.type === 'patch' && result.payload.unifiedDiff,
    ).toMatch(/- {2}return 2;\n\+ {2}return 3;/);
  });
});
