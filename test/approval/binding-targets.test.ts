import fs from 'node:fs';
import path from 'node:path';
import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { decidePending, executeApproved } from '../../src/approval/native-ledger.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { read, tempDir } from '../helpers/temp-project.js';
import { err, ok, project } from '../tools/fixture.js';

/**
 * Approvals bind to the file itself, not to its name: each numbered case is one
 * way a name was made to point elsewhere (or a policy, a memory or a rebase to
 * look at the wrong file) between what was approved and what ran.
 */

const exists = (dir: string, rel: string) => fs.existsSync(path.join(dir, rel));
const isLink = (dir: string, rel: string) => fs.lstatSync(path.join(dir, rel)).isSymbolicLink();

/** An approval layer that approves everything, after running `during` (the "prompt"). */
function approvingAfter(toolset: FileSystemToolset, during: () => void = () => {}) {
  const shown: ApprovalRequest[] = [];
  const gated = new ApprovalToolset(toolset, {
    approve: (r) => {
      shown.push(r);
      during();
      return { approved: true };
    },
  });
  return { gated, shown };
}

describe('case 1: a file or directory swapped during the prompt', () => {
  it('an edit of /x.txt swapped for a link to /other.txt (same bytes) is stale; /other.txt is untouched', async () => {
    const { dir, toolset } = project({ 'x.txt': 'same\n', 'other.txt': 'same\n' });
    const { gated } = approvingAfter(toolset, () => {
      fs.rmSync(path.join(dir, 'x.txt'));
      fs.symlinkSync('other.txt', path.join(dir, 'x.txt'));
    });
    const e = err(
      await gated.callTool('edit_file', { path: '/x.txt', old_string: 'same', new_string: 'EDIT' }),
    );
    expect(e.code).toBe('stale_approval');
    expect(read(dir, 'other.txt')).toBe('same\n');
    expect(isLink(dir, 'x.txt')).toBe(true);
  });

  it('an edit of /x.txt replaced by another file with equal bytes is stale (the approved file is gone)', async () => {
    const { dir, toolset } = project({ 'x.txt': 'same\n' });
    const { gated } = approvingAfter(toolset, () => {
      fs.writeFileSync(path.join(dir, 'x.new'), 'same\n');
      fs.renameSync(path.join(dir, 'x.new'), path.join(dir, 'x.txt'));
    });
    const e = err(await gated.callTool('write_file', { path: '/x.txt', content: 'new\n' }));
    expect(e.code).toBe('stale_approval');
    expect(read(dir, 'x.txt')).toBe('same\n');
  });

  it('deleting /a/x.txt after /a was swapped for a link to /backup deletes nothing', async () => {
    const { dir, toolset } = project({ 'a/x.txt': 'keep\n', 'backup/x.txt': 'keep\n' });
    const { gated } = approvingAfter(toolset, () => {
      fs.renameSync(path.join(dir, 'a'), path.join(dir, 'a-old'));
      fs.symlinkSync('backup', path.join(dir, 'a'));
    });
    expect(err(await gated.callTool('delete_file', { path: '/a/x.txt' })).code).toBe('stale_approval');
    expect(read(dir, 'backup/x.txt')).toBe('keep\n');
    expect(read(dir, 'a-old/x.txt')).toBe('keep\n');
  });

  it('creating /a/new.txt after /a was swapped for a link to /b (or for /b itself) creates nothing', async () => {
    for (const swap of ['link', 'rename'] as const) {
      const { dir, toolset } = project({ 'a/keep.txt': 'a\n', 'b/keep.txt': 'b\n' });
      const { gated } = approvingAfter(toolset, () => {
        fs.renameSync(path.join(dir, 'a'), path.join(dir, 'a-old'));
        if (swap === 'link') fs.symlinkSync('b', path.join(dir, 'a'));
        else fs.renameSync(path.join(dir, 'b'), path.join(dir, 'a'));
      });
      const e = err(await gated.callTool('write_file', { path: '/a/new.txt', content: 'x\n' }));
      expect(e.code, swap).toBe('stale_approval');
      expect(exists(dir, 'b/new.txt') || exists(dir, 'a/new.txt') || exists(dir, 'a-old/new.txt')).toBe(
        false,
      );
    }
  });

  it('an approved read of /x.md swapped for a link to /secret.md during the prompt reads nothing', async () => {
    const { dir, toolset } = project({ 'x.md': 'plain\n', 'secret.md': 'SECRET\n' }, { readApproval: true });
    const { gated } = approvingAfter(toolset, () => {
      fs.rmSync(path.join(dir, 'x.md'));
      fs.symlinkSync('secret.md', path.join(dir, 'x.md'));
    });
    const e = err(await gated.callTool('read_file', { path: '/x.md' }));
    expect(e.code).toBe('stale_approval');
    expect(JSON.stringify(e)).not.toContain('SECRET');
  });

  it('a move whose destination directory was swapped for a link during the prompt moves nothing', async () => {
    const { dir, toolset } = project({ 'f.txt': 'f\n', 'dst/keep': '', 'elsewhere/keep': '' });
    const { gated } = approvingAfter(toolset, () => {
      fs.renameSync(path.join(dir, 'dst'), path.join(dir, 'dst-old'));
      fs.symlinkSync('elsewhere', path.join(dir, 'dst'));
    });
    const e = err(await gated.callTool('move_file', { source: '/f.txt', destination: '/dst/f.txt' }));
    expect(e.code).toBe('stale_approval');
    expect(read(dir, 'f.txt')).toBe('f\n');
    expect(exists(dir, 'elsewhere/f.txt')).toBe(false);
  });
});

describe('case 2: policies are checked on the name and on where it leads', () => {
  it("suffixes ['.md']: /env.md → .env does not read .env", async () => {
    const { dir, toolset } = project({ '.env': 'SECRET=1\n' }, { suffixes: ['.md'] });
    fs.symlinkSync('.env', path.join(dir, 'env.md'));
    const e = err(await toolset.callTool('read_file', { path: '/env.md' }));
    expect(e.code).toBe('suffix_not_allowed');
    expect(JSON.stringify(e)).not.toContain('SECRET');
  });

  it('a dangling /notes.md → .github/workflows/ci.yml does not let write_file create ci.yml', async () => {
    const { dir, toolset } = project({}, { suffixes: ['.md'] });
    fs.symlinkSync('.github/workflows/ci.yml', path.join(dir, 'notes.md'));
    const { gated, shown } = approvingAfter(toolset);
    const e = err(await gated.callTool('write_file', { path: '/notes.md', content: 'on: push\n' }));
    expect(e.code).toBe('approval_blocked');
    expect(shown).toHaveLength(0);
    expect(exists(dir, '.github')).toBe(false);
  });

  it('a link from a writable grant to a file outside it is refused like that file', async () => {
    const dir = tempDir({ 'locked.txt': 'locked\n', 'secret/key.txt': 'KEY\n', 'drafts/keep': '' });
    const parent = Sandbox.fromDirectory(dir, { mode: 'rw' });
    const child = parent.derive({ allowRead: '/drafts', allowWrite: '/drafts' });
    fs.symlinkSync('../locked.txt', path.join(dir, 'drafts/l.txt'));
    fs.symlinkSync('../secret/key.txt', path.join(dir, 'drafts/k.txt'));
    const toolset = new FileSystemToolset(child);
    const { gated, shown } = approvingAfter(toolset);
    expect(err(await gated.callTool('write_file', { path: '/drafts/l.txt', content: 'x\n' })).code).toBe(
      'approval_blocked',
    );
    expect(shown).toHaveLength(0);
    expect(read(dir, 'locked.txt')).toBe('locked\n');
    const e = err(await toolset.callTool('read_file', { path: '/drafts/k.txt' }));
    expect(e.code).toBe('path_not_in_sandbox');
    expect(JSON.stringify(e)).not.toContain('KEY');
  });
});

describe('case 3: a write through a link says where it goes', () => {
  it('write_file, edit_file, patch_file and edit_lines payloads carry resolved { path, via }', async () => {
    const { dir, toolset } = project({ 'docs/real.md': 'one\ntwo\n' });
    fs.symlinkSync('docs/real.md', path.join(dir, 'notes.md'));
    const { gated, shown } = approvingAfter(toolset);
    ok(await gated.callTool('write_file', { path: '/notes.md', content: 'one\ntwo\n3\n' }));
    ok(await gated.callTool('edit_file', { path: '/notes.md', old_string: 'two', new_string: 'TWO' }));
    ok(
      await gated.callTool('patch_file', {
        path: '/notes.md',
        unified_diff: '@@ -1,3 +1,3 @@\n one\n TWO\n-3\n+three\n',
        base_sha256: String(ok(await toolset.callTool('read_file', { path: '/notes.md' })).sha256),
      }),
    );
    const anchors = String(
      ok(await toolset.callTool('read_file', { path: '/notes.md', hashes: true })).content,
    )
      .split('\n')
      .map((l) => l.slice(0, l.indexOf('|')));
    ok(
      await gated.callTool('edit_lines', {
        path: '/notes.md',
        operations: [{ op: 'replace_line', hash: anchors[0], content: 'ONE' }],
      }),
    );
    expect(shown.map((r) => r.payload.type)).toEqual(['write', 'edit', 'patch', 'lines']);
    for (const r of shown) {
      expect(r.payload.path).toBe('/notes.md');
      expect(r.payload.resolved).toEqual({ path: '/docs/real.md', via: ['/notes.md'] });
      expect(r.payload.description).toContain('/docs/real.md');
    }
    expect(read(dir, 'docs/real.md')).toBe('ONE\nTWO\nthree\n');
    expect(isLink(dir, 'notes.md')).toBe(true);
  });

  it('a path through a linked directory names that link; a plain path has no resolved field', async () => {
    const { dir, toolset } = project({ 'real/a.txt': 'a\n', 'plain.txt': 'p\n' });
    fs.symlinkSync('real', path.join(dir, 'alias'));
    const { gated, shown } = approvingAfter(toolset);
    ok(await gated.callTool('delete_file', { path: '/alias/a.txt' }));
    ok(await gated.callTool('write_file', { path: '/plain.txt', content: 'q\n' }));
    expect(shown[0]!.payload.resolved).toEqual({ path: '/real/a.txt', via: ['/alias'] });
    expect(shown[1]!.payload.resolved).toBeUndefined();
  });
});

describe('case 4: a remembered "this file" follows the file, not the link', () => {
  it('a link re-pointed at another file asks again', async () => {
    const { dir, toolset } = project({ 'README.md': 'r\n', 'AGENTS.md': 'a\n' });
    fs.symlinkSync('README.md', path.join(dir, 'notes.md'));
    const asked: string[] = [];
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => {
        asked.push(r.payload.resolved?.path ?? r.payload.path);
        return { approved: true, remember: { scope: 'file' } };
      },
    });
    ok(await gated.callTool('write_file', { path: '/notes.md', content: '1\n' }));
    ok(await gated.callTool('write_file', { path: '/notes.md', content: '2\n' }));
    expect(asked).toEqual(['/README.md']);
    fs.rmSync(path.join(dir, 'notes.md'));
    fs.symlinkSync('AGENTS.md', path.join(dir, 'notes.md'));
    ok(await gated.callTool('write_file', { path: '/notes.md', content: '3\n' }));
    expect(asked).toEqual(['/README.md', '/AGENTS.md']);
  });
});

describe('case 5: rebase chains are kept per file, never by content across files', () => {
  it('an outside change to b.txt equal to an approved result on a.txt is refused, not rebased over', async () => {
    const start = 'l1\nl2\nl3\nl4\nl5\n';
    const { dir, toolset } = project({ 'a.txt': start, 'b.txt': start });
    const approve = () => ({ approved: true });
    const c1 = {
      toolName: 'edit_file',
      toolCallId: 'c1',
      input: { path: '/a.txt', old_string: 'l1', new_string: 'L1' },
    };
    const c2 = {
      toolName: 'edit_file',
      toolCallId: 'c2',
      input: { path: '/b.txt', old_string: 'l5', new_string: 'L5' },
    };
    await decidePending(toolset, approve, c1);
    await decidePending(toolset, approve, c2);
    ok(await executeApproved(toolset, 'edit_file', c1.input, 'c1'));
    fs.writeFileSync(path.join(dir, 'b.txt'), read(dir, 'a.txt')); // someone else changes b.txt
    expect(err(await executeApproved(toolset, 'edit_file', c2.input, 'c2')).code).toBe('stale_approval');
    expect(read(dir, 'b.txt')).toBe('L1\nl2\nl3\nl4\nl5\n');
  });

  it('two approved edits of ONE file still rebase (its inode changes with each atomic write)', async () => {
    const { dir, toolset } = project({ 'a.txt': 'l1\nl2\nl3\nl4\nl5\n' });
    const approve = () => ({ approved: true });
    const c1 = {
      toolName: 'edit_file',
      toolCallId: 'c1',
      input: { path: '/a.txt', old_string: 'l1', new_string: 'L1' },
    };
    const c2 = {
      toolName: 'edit_file',
      toolCallId: 'c2',
      input: { path: '/a.txt', old_string: 'l5', new_string: 'L5' },
    };
    await decidePending(toolset, approve, c1);
    await decidePending(toolset, approve, c2);
    ok(await executeApproved(toolset, 'edit_file', c1.input, 'c1'));
    ok(await executeApproved(toolset, 'edit_file', c2.input, 'c2'));
    expect(read(dir, 'a.txt')).toBe('L1\nl2\nl3\nl4\nL5\n');
  });
});

describe("case 6: the person's own edit is applied verbatim", () => {
  it('after an indentation-level match, the $EDITOR new_string is written as saved, not re-indented', async () => {
    const file = 'def f(x):\n    if x:\n        return 1\n    return 0\n';
    const { dir, toolset } = project({ 'f.py': file });
    const mine = '    if x:\n        return 2  # fixed by hand\n';
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => ({
        approved: true,
        overrideArgs: { ...(r.args as object), new_string: mine },
      }),
    });
    // The model's old_string is not indented: it matches at the indentation level.
    const out = ok(
      await gated.callTool('edit_file', {
        path: '/f.py',
        old_string: 'if x:\n    return 1\n',
        new_string: 'if x:\n    return 3\n',
      }),
    );
    expect(read(dir, 'f.py')).toBe('def f(x):\n    if x:\n        return 2  # fixed by hand\n    return 0\n');
    expect(out.user_modified).toBe(true);
  });
  it('request.previewEdit gives the diff of the file the edited call writes, and that is what is written', async () => {
    const file = 'def f(x):\n    if x:\n        return 1\n    return 0\n';
    const { dir, toolset } = project({ 'f.py': file });
    const mine = '    if x:\n        return 2\n';
    let previewed: string | undefined;
    let keys: string[] = [];
    const gated = new ApprovalToolset(toolset, {
      approve: async (r) => {
        keys = Object.keys(r);
        const edited = { ...(r.args as Record<string, unknown>), new_string: mine };
        const preview = await r.previewEdit!(edited);
        if (preview.status !== 'needs_approval' || preview.payload.type !== 'edit')
          throw new Error('no preview');
        previewed = preview.payload.unifiedDiff;
        return { approved: true, overrideArgs: edited };
      },
    });
    ok(
      await gated.callTool('edit_file', {
        path: '/f.py',
        old_string: 'if x:\n    return 1\n',
        new_string: 'x',
      }),
    );
    expect(previewed).toContain('+        return 2');
    expect(read(dir, 'f.py')).toBe(applyPatch(file, previewed!));
    // A function, not data: copying or serialising the request leaves it out.
    expect(keys).not.toContain('previewEdit');
  });

  it("after a typographic match, the person's own curly quotes are not folded to the file's ASCII", async () => {
    const { dir, toolset } = project({ 'q.md': 'say("hi")\nnext\n' });
    const mine = 'say(\u201cbye\u201d)';
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => ({ approved: true, overrideArgs: { ...(r.args as object), new_string: mine } }),
    });
    // The model's old_string has typographic quotes where the file has ASCII: a unicode-level match.
    const out = ok(
      await gated.callTool('edit_file', {
        path: '/q.md',
        old_string: 'say(\u201chi\u201d)',
        new_string: 'say(\u201cyo\u201d)',
      }),
    );
    expect(out.match_level).toBe('unicode');
    expect(read(dir, 'q.md')).toBe(`${mine}\nnext\n`);
  });
});

describe('case 7: text that cannot be written as shown, and partial editor updates', () => {
  it('a lone surrogate in a text argument is invalid_argument; nothing is asked or written', async () => {
    const { dir, toolset } = project({ 'a.txt': 'a\n' });
    const { gated, shown } = approvingAfter(toolset);
    for (const call of [
      ['write_file', { path: '/new.txt', content: 'x\uD800y\n' }],
      ['edit_file', { path: '/a.txt', old_string: 'a', new_string: '\uDC00' }],
    ] as const) {
      expect(err(await gated.callTool(call[0], call[1])).code).toBe('invalid_argument');
    }
    expect(shown).toHaveLength(0);
    expect(exists(dir, 'new.txt')).toBe(false);
    expect(read(dir, 'a.txt')).toBe('a\n');
  });
});
