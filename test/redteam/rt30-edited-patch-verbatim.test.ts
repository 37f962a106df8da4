// Red team (rt30a): a person's edited patch_file (overrideArgs) is "applied verbatim (never re-indented or
// re-quoted)" (docs/approval.md). When the person's context lines differ from the file only in whitespace
// (spaces where the file has tabs), the fuzzy patch fixer re-indents the person's added line to the file's
// style: `  return “3”;` lands as `\treturn “3”;`. (previewEdit shows the same re-indented result.)
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

it("a person's edited patch_file lands with the added line exactly as typed", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt30-verbatim-'));
  const orig = 'function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n';
  fs.writeFileSync(path.join(root, 'a.js'), orig);
  const sha = createHash('sha256').update(orig).digest('hex');
  const model = '--- a\n+++ b\n@@ -2,3 +2,3 @@\n \tif (x) {\n-\t\treturn 1;\n+\t\treturn 2;\n \t}\n';
  const person = '--- a\n+++ b\n@@ -2,3 +2,3 @@\n   if (x) {\n-    return 1;\n+  return “3”;\n   }\n';
  const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
    approve: () => ({
      approved: true,
      overrideArgs: { path: '/a.js', unified_diff: person, base_sha256: sha },
    }),
  });
  const out: any = await g.callTool('patch_file', { path: '/a.js', unified_diff: model, base_sha256: sha });
  const text = fs.readFileSync(path.join(root, 'a.js'), 'utf8');
  fs.rmSync(root, { recursive: true, force: true });
  if (!out.ok) return; // refusing a diff whose context does not match is fine
  expect(text.split('\n')[2]).toBe('  return “3”;');
});
