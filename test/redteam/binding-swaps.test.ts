import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import type { ToolOutcome } from '../../src/contract/tool-outcome.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { snapshot, tempDir } from '../helpers/temp-project.js';

function setup(files: Record<string, string>, mount: Record<string, unknown> = {}) {
  const dir = tempDir(files);
  const sandbox = Sandbox.fromDirectory(dir, { mode: 'rw', ...mount });
  const toolset = new FileSystemToolset(sandbox);
  return { dir, sandbox, toolset };
}
const P = (dir: string, rel: string) => path.join(dir, rel);
/** Runs a call, doing `swap` inside the approval callback; returns outcome + snapshots. */
async function swapInside(
  files: Record<string, string>,
  tool: string,
  args: Record<string, unknown> | ((dir: string) => Record<string, unknown>),
  swap: (dir: string) => void,
  prep?: (dir: string) => void,
) {
  const { dir, toolset } = setup(files);
  prep?.(dir);
  let after: Record<string, string> = {};
  let asked = 0;
  const gated = new ApprovalToolset(toolset, {
    approve: () => {
      asked++;
      swap(dir);
      after = snapshot(dir);
      return { approved: true };
    },
  });
  const a = typeof args === 'function' ? args(dir) : args;
  const outcome: ToolOutcome = await gated.callTool(tool, a, { toolCallId: 'c1' });
  return { outcome, after, now: snapshot(dir), asked, dir };
}
function expectStale(r: Awaited<ReturnType<typeof swapInside>>) {
  expect(r.asked).toBe(1);
  expect(r.outcome.ok ? 'ok' : r.outcome.error.code).toBe('stale_approval');
  expect(r.now).toEqual(r.after);
}
/** Replace `rel` with a new inode holding the same bytes (rename-over). */
const sameBytesNewInode = (dir: string, rel: string) => {
  const tmp = P(dir, `${rel}.swap`);
  fs.writeFileSync(tmp, fs.readFileSync(P(dir, rel)));
  fs.renameSync(tmp, P(dir, rel));
};
/** Swap parent dir for a copy with equal content. */
const swapParentDir = (dir: string, rel: string) => {
  const d = P(dir, rel);
  fs.renameSync(d, `${d}.old`);
  fs.cpSync(`${d}.old`, d, { recursive: true });
  fs.rmSync(`${d}.old`, { recursive: true });
};

const TXT = 'line one\nline two\nline three\n';

describe('swap inside the approval callback: same bytes, different file', () => {
  it('write_file: file replaced by same-bytes file (rename-over)', async () => {
    expectStale(
      await swapInside({ 'a.txt': TXT }, 'write_file', { path: '/a.txt', content: 'new\n' }, (d) =>
        sameBytesNewInode(d, 'a.txt'),
      ),
    );
  });
  it('write_file: file replaced by a hard link to another equal file', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'x.txt': TXT },
        'write_file',
        { path: '/a.txt', content: 'new\n' },
        (d) => {
          fs.rmSync(P(d, 'a.txt'));
          fs.linkSync(P(d, 'x.txt'), P(d, 'a.txt'));
        },
      ),
    );
  });
  it('write_file: file replaced by a symlink to an equal file', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'x.txt': TXT },
        'write_file',
        { path: '/a.txt', content: 'new\n' },
        (d) => {
          fs.rmSync(P(d, 'a.txt'));
          fs.symlinkSync('x.txt', P(d, 'a.txt'));
        },
      ),
    );
  });
  it('write_file: parent directory replaced by an equal copy', async () => {
    expectStale(
      await swapInside({ 'd/a.txt': TXT }, 'write_file', { path: '/d/a.txt', content: 'new\n' }, (d) =>
        swapParentDir(d, 'd'),
      ),
    );
  });
  it('write_file: parent directory replaced by a symlink to an equal directory', async () => {
    expectStale(
      await swapInside(
        { 'd/a.txt': TXT, 'e/a.txt': TXT },
        'write_file',
        { path: '/d/a.txt', content: 'new\n' },
        (d) => {
          fs.renameSync(P(d, 'd'), P(d, 'gone'));
          fs.symlinkSync('e', P(d, 'd'));
        },
      ),
    );
  });
  it('write_file create: parent directory replaced (new file)', async () => {
    expectStale(
      await swapInside({ 'd/keep.txt': 'k\n' }, 'write_file', { path: '/d/new.txt', content: 'new\n' }, (d) =>
        swapParentDir(d, 'd'),
      ),
    );
  });
  it('write_file create: grandparent directory replaced', async () => {
    expectStale(
      await swapInside(
        { 'g/d/keep.txt': 'k\n' },
        'write_file',
        { path: '/g/d/new.txt', content: 'new\n' },
        (d) => swapParentDir(d, 'g'),
      ),
    );
  });
  it('write_file create where parents do not exist yet: someone creates them in between', async () => {
    const r = await swapInside(
      { 'k.txt': 'k\n' },
      'write_file',
      { path: '/p/q/new.txt', content: 'new\n' },
      (d) => {
        fs.mkdirSync(P(d, 'elsewhere/q'), { recursive: true });
        fs.symlinkSync('elsewhere', P(d, 'p'));
      },
    );
    expectStale(r);
  });
  it('write_file create: target appears as a link to an existing file in between', async () => {
    expectStale(
      await swapInside({ 'x.txt': '' }, 'write_file', { path: '/n.txt', content: 'new\n' }, (d) => {
        fs.symlinkSync('x.txt', P(d, 'n.txt'));
      }),
    );
  });
  it('write_file through link: link re-pointed to equal file', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'b.txt': TXT },
        'write_file',
        { path: '/l.txt', content: 'new\n' },
        (d) => {
          fs.rmSync(P(d, 'l.txt'));
          fs.symlinkSync('b.txt', P(d, 'l.txt'));
        },
        (d) => fs.symlinkSync('a.txt', P(d, 'l.txt')),
      ),
    );
  });
  it('write_file through intermediate dir link re-pointed to equal dir', async () => {
    expectStale(
      await swapInside(
        { 'd1/a.txt': TXT, 'd2/a.txt': TXT },
        'write_file',
        { path: '/ln/a.txt', content: 'new\n' },
        (d) => {
          fs.rmSync(P(d, 'ln'));
          fs.symlinkSync('d2', P(d, 'ln'));
        },
        (d) => fs.symlinkSync('d1', P(d, 'ln')),
      ),
    );
  });
  it('write_file through link chain: middle link re-pointed', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'b.txt': TXT },
        'write_file',
        { path: '/l1.txt', content: 'new\n' },
        (d) => {
          fs.rmSync(P(d, 'l2.txt'));
          fs.symlinkSync('b.txt', P(d, 'l2.txt'));
        },
        (d) => {
          fs.symlinkSync('a.txt', P(d, 'l2.txt'));
          fs.symlinkSync('l2.txt', P(d, 'l1.txt'));
        },
      ),
    );
  });
  it('write_file through dangling link (create): link re-pointed to another missing name', async () => {
    expectStale(
      await swapInside(
        { 'k.txt': '' },
        'write_file',
        { path: '/l.txt', content: 'new\n' },
        (d) => {
          fs.rmSync(P(d, 'l.txt'));
          fs.symlinkSync('other.txt', P(d, 'l.txt'));
        },
        (d) => fs.symlinkSync('target.txt', P(d, 'l.txt')),
      ),
    );
  });
  it('write_file: link replaced with a regular file of same bytes as target', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT },
        'write_file',
        { path: '/l.txt', content: 'new\n' },
        (d) => {
          fs.rmSync(P(d, 'l.txt'));
          fs.writeFileSync(P(d, 'l.txt'), TXT);
        },
        (d) => fs.symlinkSync('a.txt', P(d, 'l.txt')),
      ),
    );
  });
  it('write_file: file swapped with a directory', async () => {
    const r = await swapInside({ 'a.txt': TXT }, 'write_file', { path: '/a.txt', content: 'new\n' }, (d) => {
      fs.rmSync(P(d, 'a.txt'));
      fs.mkdirSync(P(d, 'a.txt'));
    });
    expect(r.outcome.ok).toBe(false);
    expect(r.now).toEqual(r.after);
  });
  it('edit_file: same-bytes swap', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT },
        'edit_file',
        { path: '/a.txt', old_string: 'line two', new_string: 'LINE 2' },
        (d) => sameBytesNewInode(d, 'a.txt'),
      ),
    );
  });
  it('edit_file: hardlink swap', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'x.txt': TXT },
        'edit_file',
        { path: '/a.txt', old_string: 'line two', new_string: 'LINE 2' },
        (d) => {
          fs.renameSync(P(d, 'a.txt'), P(d, 'a.bak'));
          fs.linkSync(P(d, 'x.txt'), P(d, 'a.txt'));
        },
      ),
    );
  });
  it('patch_file: parent swap', async () => {
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(TXT).digest('hex');
    expectStale(
      await swapInside(
        { 'd/a.txt': TXT },
        'patch_file',
        {
          path: '/d/a.txt',
          base_sha256: sha,
          unified_diff:
            '--- a/d/a.txt\n+++ b/d/a.txt\n@@ -1,3 +1,3 @@\n line one\n-line two\n+LINE 2\n line three\n',
        },
        (d) => swapParentDir(d, 'd'),
      ),
    );
  });
  it('delete_file: same-bytes swap / hardlink swap / parent swap', async () => {
    expectStale(
      await swapInside({ 'a.txt': TXT }, 'delete_file', { path: '/a.txt' }, (d) =>
        sameBytesNewInode(d, 'a.txt'),
      ),
    );
    expectStale(
      await swapInside({ 'd/a.txt': TXT }, 'delete_file', { path: '/d/a.txt' }, (d) => swapParentDir(d, 'd')),
    );
  });
  it('delete_file of a link: link swapped for a same-text link (new inode)', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT },
        'delete_file',
        { path: '/l.txt' },
        (d) => {
          fs.rmSync(P(d, 'l.txt'));
          fs.symlinkSync('a.txt', P(d, 'l.txt'));
        },
        (d) => fs.symlinkSync('a.txt', P(d, 'l.txt')),
      ),
    );
  });
  it('delete_file of a link: link replaced by the file it pointed to (same bytes)', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT },
        'delete_file',
        { path: '/l.txt' },
        (d) => {
          fs.rmSync(P(d, 'l.txt'));
          fs.renameSync(P(d, 'a.txt'), P(d, 'l.txt'));
        },
        (d) => fs.symlinkSync('a.txt', P(d, 'l.txt')),
      ),
    );
  });
  it('move_file: source same-bytes swap', async () => {
    expectStale(
      await swapInside({ 'a.txt': TXT }, 'move_file', { source: '/a.txt', destination: '/b.txt' }, (d) =>
        sameBytesNewInode(d, 'a.txt'),
      ),
    );
  });
  it('move_file: destination parent swapped (create)', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'd/k.txt': 'k\n' },
        'move_file',
        { source: '/a.txt', destination: '/d/b.txt' },
        (d) => swapParentDir(d, 'd'),
      ),
    );
  });
  it('move_file: destination parent replaced by link to another dir', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'd/k.txt': 'k\n', 'e/k.txt': 'k\n' },
        'move_file',
        { source: '/a.txt', destination: '/d/b.txt' },
        (d) => {
          fs.renameSync(P(d, 'd'), P(d, 'dd'));
          fs.symlinkSync('e', P(d, 'd'));
        },
      ),
    );
  });
  it('move_file overwrite: destination replaced by same-bytes file', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'b.txt': 'old b\n' },
        'move_file',
        { source: '/a.txt', destination: '/b.txt', overwrite: true },
        (d) => sameBytesNewInode(d, 'b.txt'),
      ),
    );
  });
  it('copy_file overwrite: destination replaced by a hardlink to an equal file', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'b.txt': 'old b\n', 'victim.txt': 'old b\n' },
        'copy_file',
        { source: '/a.txt', destination: '/b.txt', overwrite: true },
        (d) => {
          fs.rmSync(P(d, 'b.txt'));
          fs.linkSync(P(d, 'victim.txt'), P(d, 'b.txt'));
        },
      ),
    );
  });
  it('copy_file overwrite: destination is a link re-pointed to equal file', async () => {
    expectStale(
      await swapInside(
        { 'a.txt': TXT, 'b1.txt': 'old\n', 'b2.txt': 'old\n' },
        'copy_file',
        { source: '/a.txt', destination: '/bl.txt', overwrite: true },
        (d) => {
          fs.rmSync(P(d, 'bl.txt'));
          fs.symlinkSync('b2.txt', P(d, 'bl.txt'));
        },
        (d) => fs.symlinkSync('b1.txt', P(d, 'bl.txt')),
      ),
    );
  });
  it('copy_file: source replaced with equal bytes (copy of a different file)', async () => {
    expectStale(
      await swapInside({ 'a.txt': TXT }, 'copy_file', { source: '/a.txt', destination: '/c.txt' }, (d) =>
        sameBytesNewInode(d, 'a.txt'),
      ),
    );
  });
  it('copy_file create: destination appears (as a link to a victim) in between', async () => {
    const r = await swapInside(
      { 'a.txt': TXT, 'victim.txt': 'v\n' },
      'copy_file',
      { source: '/a.txt', destination: '/c.txt' },
      (d) => {
        fs.symlinkSync('victim.txt', P(d, 'c.txt'));
      },
    );
    expect(r.outcome.ok).toBe(false);
    expect(r.now).toEqual(r.after);
  });
  it('edit_lines: file swapped for same-bytes file after anchors read', async () => {
    const { dir, toolset } = setup({ 'a.txt': TXT });
    const read = await toolset.callTool('read_file', { path: '/a.txt', hashes: true });
    const anchors = String((read as { data: { content: string } }).data.content)
      .split('\n')
      .map((l) => l.slice(0, l.indexOf('|')));
    let after: Record<string, string> = {};
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        sameBytesNewInode(dir, 'a.txt');
        after = snapshot(dir);
        return { approved: true };
      },
    });
    const out = await gated.callTool('edit_lines', {
      path: '/a.txt',
      operations: [{ op: 'replace_line', hash: anchors[1], content: 'X' }],
    });
    expect(out.ok ? 'ok' : out.error.code).toBe('stale_approval');
    expect(snapshot(dir)).toEqual(after);
  });
  it('edit_lines: anchors read from a different same-content file (hard link twin / symlink)', async () => {
    // Anchors read on /b.txt (equal content); edit /a.txt. Shouldn't be "exact" for a.txt; still must edit the shown line only.
    const { dir, toolset } = setup({ 'a.txt': 'x\n}\nx\n}\n', 'b.txt': 'x\n}\nx\n}\n' });
    const read = await toolset.callTool('read_file', { path: '/b.txt', hashes: true });
    const anchors = String((read as { data: { content: string } }).data.content)
      .split('\n')
      .map((l) => l.slice(0, l.indexOf('|')));
    let shown = '';
    const gated = new ApprovalToolset(toolset, {
      approve: (r: ApprovalRequest) => {
        shown = JSON.stringify(r.payload);
        return { approved: true };
      },
    });
    const out = await gated.callTool('edit_lines', {
      path: '/a.txt',
      operations: [{ op: 'replace_line', hash: anchors[3], content: 'END' }],
    });
    if (out.ok) {
      // whatever happened, the change on disk must be the one shown
      const content = fs.readFileSync(P(dir, 'a.txt'), 'utf8');
      expect(shown).toContain('END');
      expect(content.split('\n').filter((l) => l === 'END').length).toBe(1);
    }
  });
});

describe('remember: this file', () => {
  it('re-pointed link asks again', async () => {
    const { dir, toolset } = setup({ 'a.txt': 'a\n', 'b.txt': 'a\n' });
    fs.symlinkSync('a.txt', P(dir, 'l.txt'));
    let asked = 0;
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        asked++;
        return asked === 1
          ? { approved: true, remember: { scope: 'file' } }
          : { approved: false, note: 'no' };
      },
    });
    expect((await gated.callTool('write_file', { path: '/l.txt', content: '1\n' })).ok).toBe(true);
    fs.rmSync(P(dir, 'l.txt'));
    fs.symlinkSync('b.txt', P(dir, 'l.txt'));
    const o = await gated.callTool('write_file', { path: '/l.txt', content: '2\n' });
    expect(asked).toBe(2);
    expect(o.ok).toBe(false);
    expect(fs.readFileSync(P(dir, 'b.txt'), 'utf8')).toBe('a\n');
  });
  it('parent directory swapped (same name) asks again', async () => {
    const { dir, toolset } = setup({ 'd/a.txt': 'a\n' });
    let asked = 0;
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        asked++;
        return asked === 1
          ? { approved: true, remember: { scope: 'file' } }
          : { approved: false, note: 'no' };
      },
    });
    expect((await gated.callTool('write_file', { path: '/d/a.txt', content: '1\n' })).ok).toBe(true);
    swapParentDir(dir, 'd');
    await gated.callTool('write_file', { path: '/d/a.txt', content: '2\n' });
    expect(asked).toBe(2);
  });
  it('intermediate dir link re-pointed asks again', async () => {
    const { dir, toolset } = setup({ 'd1/a.txt': 'a\n', 'd2/a.txt': 'a\n' });
    fs.symlinkSync('d1', P(dir, 'ln'));
    let asked = 0;
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        asked++;
        return asked === 1
          ? { approved: true, remember: { scope: 'file' } }
          : { approved: false, note: 'no' };
      },
    });
    expect((await gated.callTool('write_file', { path: '/ln/a.txt', content: '1\n' })).ok).toBe(true);
    fs.rmSync(P(dir, 'ln'));
    fs.symlinkSync('d2', P(dir, 'ln'));
    await gated.callTool('write_file', { path: '/ln/a.txt', content: '2\n' });
    expect(asked).toBe(2);
    expect(fs.readFileSync(P(dir, 'd2/a.txt'), 'utf8')).toBe('a\n');
  });
  it('remembered file approval, then a file name replaced by a link to another file asks again', async () => {
    const { dir, toolset } = setup({ 'a.txt': 'a\n', 'secret.txt': 's\n' });
    let asked = 0;
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        asked++;
        return asked === 1
          ? { approved: true, remember: { scope: 'file' } }
          : { approved: false, note: 'no' };
      },
    });
    expect((await gated.callTool('write_file', { path: '/a.txt', content: '1\n' })).ok).toBe(true);
    fs.rmSync(P(dir, 'a.txt'));
    fs.symlinkSync('secret.txt', P(dir, 'a.txt'));
    await gated.callTool('write_file', { path: '/a.txt', content: '2\n' });
    expect(asked).toBe(2);
    expect(fs.readFileSync(P(dir, 'secret.txt'), 'utf8')).toBe('s\n');
  });
  it('remembered file approval, then the name replaced by a hard link to another file', async () => {
    const { dir, toolset } = setup({ 'a.txt': 'a\n', 'secret.txt': 's\n' });
    let asked = 0;
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        asked++;
        return asked === 1
          ? { approved: true, remember: { scope: 'file' } }
          : { approved: false, note: 'no' };
      },
    });
    expect((await gated.callTool('write_file', { path: '/a.txt', content: '1\n' })).ok).toBe(true);
    fs.rmSync(P(dir, 'a.txt'));
    fs.linkSync(P(dir, 'secret.txt'), P(dir, 'a.txt'));
    await gated.callTool('write_file', { path: '/a.txt', content: '2\n' });
    // writes replace the entry, so secret.txt is never written through
    expect(fs.readFileSync(P(dir, 'secret.txt'), 'utf8')).toBe('s\n');
  });
});
