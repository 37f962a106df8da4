// Red team (rt30b): a person's edited write_file / edit_file / patch_file is applied exactly as written: no
// re-indent, no re-quote, and the file's line endings (CRLF) and BOM kept as the file has them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, approveAll, FileSystemToolset, Sandbox } from '../../src/index.js';

const BOM = '\uFEFF';
function setup(text: string) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-eol-')));
  fs.writeFileSync(path.join(root, 'a.txt'), text);
  return root;
}
const sha = (s: string | Buffer) => crypto.createHash('sha256').update(s).digest('hex');

async function runOverride(text: string, tool: string, modelArgs: any, override: (root: string) => any) {
  const root = setup(text);
  const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
    approve: () => ({ approved: true, overrideArgs: override(root) }),
  });
  const r: any = await g.callTool(tool, modelArgs, { toolCallId: 'c1' });
  const out = fs.readFileSync(path.join(root, 'a.txt'), 'utf8');
  fs.rmSync(root, { recursive: true, force: true });
  return { r, out };
}
async function runModel(text: string, tool: string, args: (root: string) => any) {
  const root = setup(text);
  const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
    approve: approveAll(),
  });
  const r: any = await g.callTool(tool, args(root), { toolCallId: 'c1' });
  const out = fs.readFileSync(path.join(root, 'a.txt'), 'utf8');
  fs.rmSync(root, { recursive: true, force: true });
  return { r, out };
}

const FILE = `${BOM}function f() {\r\n\tif (x) {\r\n\t\treturn "a";\r\n\t}\r\n}\r\n`;

describe('edited calls on a CRLF + BOM file', () => {
  it('edit_file exact match: person text verbatim, CRLF and BOM kept (same as the model sending it)', async () => {
    const person = {
      path: '/a.txt',
      old_string: '\t\treturn "a";',
      new_string: "    return 'b';\n    // two",
    };
    const o = await runOverride(
      FILE,
      'edit_file',
      { path: '/a.txt', old_string: 'f()', new_string: 'g()' },
      () => person,
    );
    const m = await runModel(FILE, 'edit_file', () => person);
    expect(o.r.ok, JSON.stringify(o.r)).toBe(true);
    expect(JSON.stringify(o.out)).toBe(JSON.stringify(m.out));
    expect(o.out.startsWith(BOM)).toBe(true);
    expect(o.out).toContain("    return 'b';");
  });

  it('edit_file fuzzy (indentation) match: added lines as the person wrote them, CRLF + BOM kept', async () => {
    const person = {
      path: '/a.txt',
      old_string: '  if (x) {\n    return "a";\n  }',
      new_string: '  if (y) {\n      return “b”;\n  }',
    };
    const o = await runOverride(
      FILE,
      'edit_file',
      { path: '/a.txt', old_string: 'f()', new_string: 'g()' },
      () => person,
    );
    expect(o.r.ok, JSON.stringify(o.r)).toBe(true);
    expect(o.out.startsWith(BOM)).toBe(true);
    const lines = o.out.slice(1).split('\r\n');
    expect(o.out.replace(/\r\n/g, '').includes('\n')).toBe(false); // every line ends CRLF
    expect(lines).toContain('      return “b”;');
  });

  it('patch_file: added lines verbatim, CRLF + BOM kept', async () => {
    const diff =
      '--- a/a.txt\n+++ b/a.txt\n@@ -2,3 +2,3 @@\n \tif (x) {\n-\t\treturn "a";\n+  return \'q\';  \n \t}\n';
    const o = await runOverride(
      FILE,
      'patch_file',
      {
        path: '/a.txt',
        unified_diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-function f() {\n+function g() {\n',
        base_sha256: sha(FILE),
      },
      () => ({ path: '/a.txt', unified_diff: diff, base_sha256: sha(FILE) }),
    );
    expect(o.r.ok, JSON.stringify(o.r)).toBe(true);
    expect(JSON.stringify(o.out)).toBe(
      JSON.stringify(`${BOM}function f() {\r\n\tif (x) {\r\n  return 'q';  \r\n\t}\r\n}\r\n`),
    );
  });

  it('write_file: the person content lands like the model sending it', async () => {
    const person = { path: '/a.txt', content: "x\n  'y'\nz\n" };
    const o = await runOverride(FILE, 'write_file', { path: '/a.txt', content: 'model\n' }, () => person);
    const m = await runModel(FILE, 'write_file', () => person);
    expect(o.r.ok, JSON.stringify(o.r)).toBe(true);
    expect(JSON.stringify(o.out)).toBe(JSON.stringify(m.out));
  });

  it('edit_file replace_all with person text on mixed CRLF/LF file: line ends per line kept', async () => {
    const text = 'a = 1\r\nb = 1\nc = 1\r\n';
    const person = { path: '/a.txt', old_string: '1', new_string: '"2"', replace_all: true };
    const o = await runOverride(
      text,
      'edit_file',
      { path: '/a.txt', old_string: 'a', new_string: 'A' },
      () => person,
    );
    expect(o.r.ok, JSON.stringify(o.r)).toBe(true);
    expect(JSON.stringify(o.out)).toBe(JSON.stringify('a = "2"\r\nb = "2"\nc = "2"\r\n'));
  });
});

describe('edited calls are never re-quoted or re-indented', () => {
  it('edit_file unicode-level match: curly quotes written as typed, and exactly the line previewEdit showed', async () => {
    const text = 'function f() {\n    say("hi");\n}\n';
    const person = { path: '/a.txt', old_string: 'say(“hi”);', new_string: 'say(“bye”); // ‘x’ — …' };
    const root = setup(text);
    let previewDiff = '';
    const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
      approve: async (req) => {
        const pv: any = await req.previewEdit?.(person);
        previewDiff = pv?.payload?.unifiedDiff ?? JSON.stringify(pv);
        return { approved: true, overrideArgs: person };
      },
    });
    const r: any = await g.callTool(
      'edit_file',
      { path: '/a.txt', old_string: 'f()', new_string: 'g()' },
      { toolCallId: 'c1' },
    );
    const out = fs.readFileSync(path.join(root, 'a.txt'), 'utf8');
    fs.rmSync(root, { recursive: true, force: true });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const written = out.split('\n')[1]!;
    expect(written.trimStart()).toBe('say(“bye”); // ‘x’ — …');
    expect(previewDiff.split('\n'), previewDiff).toContain(`+${written}`);
  });

  it('edit_lines edited by the person on a CRLF tab file: content as typed (spaces kept), CRLF kept', async () => {
    const text = 'a {\r\n\tb;\r\n}\r\n';
    const root = setup(text);
    const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }));
    const rd: any = await ts.callTool('read_file', { path: '/a.txt', hashes: true });
    const anchor = rd.data.content.split('\n')[1].split('|')[0];
    const g = new ApprovalToolset(ts, {
      approve: () => ({
        approved: true,
        overrideArgs: {
          path: '/a.txt',
          sanity: 'off',
          operations: [{ op: 'replace_line', hash: anchor, content: '    c = "1";\n  d;' }],
        },
      }),
    });
    const r: any = await g.callTool(
      'edit_lines',
      { path: '/a.txt', operations: [{ op: 'replace_line', hash: anchor, content: '\tz;' }] },
      { toolCallId: 'c1' },
    );
    const out = fs.readFileSync(path.join(root, 'a.txt'), 'utf8');
    fs.rmSync(root, { recursive: true, force: true });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(JSON.stringify(out)).toBe(JSON.stringify('a {\r\n    c = "1";\r\n  d;\r\n}\r\n'));
  });

  it('patch_file edited by the person with a mis-indented context (fuzzy): added lines as typed', async () => {
    const text = 'def f():\n\tif x:\n\t\treturn 1\n';
    const sha256 = sha(text);
    const diff =
      '--- a\n+++ b\n@@ -1,3 +1,3 @@\n def f():\n     if x:\n-        return 1\n+      return   “2”\n';
    const o = await runOverride(
      text,
      'patch_file',
      {
        path: '/a.txt',
        base_sha256: sha256,
        unified_diff: '--- a\n+++ b\n@@ -1 +1 @@\n-def f():\n+def g():\n',
      },
      () => ({ path: '/a.txt', base_sha256: sha256, unified_diff: diff }),
    );
    expect(o.r.ok, JSON.stringify(o.r)).toBe(true);
    expect(JSON.stringify(o.out)).toBe(JSON.stringify('def f():\n\tif x:\n      return   “2”\n'));
  });
});
