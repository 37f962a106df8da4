import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { approveAll } from '../../src/approval/policies.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { snapshot, tempDir } from '../helpers/temp-project.js';

const P = (dir: string, rel: string) => path.join(dir, rel);
const code = (o: { ok: boolean; error?: { code: string } }) => (o.ok ? 'ok' : o.error?.code);

describe('links: delete/move of a link swapped in the callback', () => {
  it('delete_file /d/l.txt: parent dir swapped for an equal copy (link inside)', async () => {
    const dir = tempDir({ 'd/a.txt': 'a\n' });
    fs.symlinkSync('a.txt', P(dir, 'd/l.txt'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    let after = {};
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        fs.renameSync(P(dir, 'd'), P(dir, 'd.old'));
        fs.cpSync(P(dir, 'd.old'), P(dir, 'd'), { recursive: true, verbatimSymlinks: true });
        after = snapshot(dir);
        return { approved: true };
      },
    });
    const o = await gated.callTool('delete_file', { path: '/d/l.txt' });
    expect(code(o)).toBe('stale_approval');
    expect(snapshot(dir)).toEqual(after);
  });
  it('move_file of a link: link swapped for a same-text link', async () => {
    const dir = tempDir({ 'a.txt': 'a\n' });
    fs.symlinkSync('a.txt', P(dir, 'l.txt'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    let after = {};
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        fs.rmSync(P(dir, 'l.txt'));
        fs.symlinkSync('a.txt', P(dir, 'l.txt'));
        after = snapshot(dir);
        return { approved: true };
      },
    });
    const o = await gated.callTool('move_file', { source: '/l.txt', destination: '/m.txt' });
    expect(code(o)).toBe('stale_approval');
    expect(snapshot(dir)).toEqual(after);
  });
});

describe('policies hold on where the path leads', () => {
  it('suffixes: /env.md -> .env is refused for read and write', async () => {
    const dir = tempDir({ '.env': 'SECRET=1\n' });
    fs.symlinkSync('.env', P(dir, 'env.md'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', suffixes: ['.md'] }));
    const gated = new ApprovalToolset(toolset, { approve: approveAll() });
    const r = await gated.callTool('read_file', { path: '/env.md' });
    expect(JSON.stringify(r)).not.toContain('SECRET');
    expect(r.ok).toBe(false);
    const w = await gated.callTool('write_file', { path: '/env.md', content: 'x\n' });
    expect(w.ok).toBe(false);
    expect(fs.readFileSync(P(dir, '.env'), 'utf8')).toBe('SECRET=1\n');
    // read_many_files, copy_file source, move_file, edit_file
    const m = await gated.callTool('read_many_files', { paths: ['/env.md'] });
    expect(JSON.stringify(m)).not.toContain('SECRET');
    const c = await gated.callTool('copy_file', { source: '/env.md', destination: '/copy.md' });
    // copy_file copies the link itself (cp -P, documented); reading the copy must still be refused
    if (c.ok)
      expect(JSON.stringify(await gated.callTool('read_file', { path: '/copy.md' }))).not.toContain('SECRET');
  });
  it('suffixes: link to .env swapped in while the person is looking at a .md write', async () => {
    const dir = tempDir({ '.env': 'SECRET=1\n', 'n.md': 'SECRET=1\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', suffixes: ['.md'] }));
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        fs.rmSync(P(dir, 'n.md'));
        fs.symlinkSync('.env', P(dir, 'n.md'));
        return { approved: true };
      },
    });
    const w = await gated.callTool('edit_file', {
      path: '/n.md',
      old_string: 'SECRET=1',
      new_string: 'SECRET=2',
    });
    expect(w.ok).toBe(false);
    expect(fs.readFileSync(P(dir, '.env'), 'utf8')).toBe('SECRET=1\n');
  });
  it('suffixes via a directory link: /docs.md/.env style path', async () => {
    const dir = tempDir({ 'sub/.env': 'SECRET=1\n', 'sub/x.md': 'x\n' });
    fs.symlinkSync('sub/.env', P(dir, 'e.md'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', suffixes: ['.md'] }));
    const r = await toolset.callTool('read_file', { path: '/e.md' });
    expect(JSON.stringify(r)).not.toContain('SECRET');
  });
  it('read-only mount: a link in the rw mount into the ro mount is refused', async () => {
    const rw = tempDir({ 'a.txt': 'a\n' });
    const ro = tempDir({ 'b.txt': 'b\n' });
    fs.symlinkSync(P(ro, 'b.txt'), P(rw, 'l.txt'));
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: rw, mountPoint: '/rw', mode: 'rw' },
        { hostPath: ro, mountPoint: '/ro', mode: 'ro' },
      ],
    });
    const gated = new ApprovalToolset(new FileSystemToolset(sandbox), { approve: approveAll() });
    const w = await gated.callTool('write_file', { path: '/rw/l.txt', content: 'x\n' });
    expect(w.ok).toBe(false);
    expect(fs.readFileSync(P(ro, 'b.txt'), 'utf8')).toBe('b\n');
  });
  it('maxFileBytes: a link named small, target huge in a mount', async () => {
    const dir = tempDir({ 'big.txt': `${'x'.repeat(5000)}\n` });
    fs.symlinkSync('big.txt', P(dir, 'l.txt'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', maxFileBytes: 1000 }));
    const r = await toolset.callTool('read_file', { path: '/l.txt' });
    expect(code(r)).toBe('file_too_large');
  });
  it('payload.resolved says where a write through a link goes (file and dir links)', async () => {
    const dir = tempDir({ 'real/a.txt': 'a\n' });
    fs.symlinkSync('real', P(dir, 'ln'));
    fs.symlinkSync('ln/a.txt', P(dir, 'top.txt'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const seen: ApprovalRequest[] = [];
    const gated = new ApprovalToolset(toolset, { approve: (r) => (seen.push(r), { approved: true }) });
    for (const [tool, args] of [
      ['write_file', { path: '/top.txt', content: 'b\n' }],
      ['edit_file', { path: '/ln/a.txt', old_string: 'b', new_string: 'c' }],
      ['write_file', { path: '/ln/new.txt', content: 'n\n' }],
      ['copy_file', { source: '/real/a.txt', destination: '/ln/copy.txt' }],
      ['move_file', { source: '/real/copy.txt', destination: '/ln/moved.txt' }],
    ] as const) {
      await gated.callTool(tool, args as Record<string, unknown>);
    }
    expect(seen.length).toBe(5);
    for (const r of seen) {
      const s = JSON.stringify(r.payload) + r.description;
      expect(s, `${r.toolName} ${JSON.stringify(r.args)}`).toContain('/real/');
    }
  });
});

describe('overrideArgs and lone surrogates', () => {
  it('overrideArgs content written verbatim (edit_file new_string with odd indentation, CRLF file)', async () => {
    const dir = tempDir({ 'a.py': 'def f():\r\n    return 1\r\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => ({
        approved: true,
        overrideArgs: { ...(r.args as object), new_string: '\treturn  “2”' },
      }),
    });
    const o = await gated.callTool('edit_file', {
      path: '/a.py',
      old_string: '    return 1',
      new_string: '    return 3',
    });
    expect(code(o)).toBe('ok');
    expect(fs.readFileSync(P(dir, 'a.py'), 'utf8')).toBe('def f():\r\n\treturn  “2”\r\n');
  });
  it('overrideArgs write_file content verbatim incl. BOM, CR, NBSP, combining marks', async () => {
    const dir = tempDir({ 'a.txt': 'a\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const content = '\uFEFFx\r\ny\u00a0e\u0301\u202Ez\n\n';
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => ({ approved: true, overrideArgs: { ...(r.args as object), content } }),
    });
    expect(code(await gated.callTool('write_file', { path: '/a.txt', content: 'b\n' }))).toBe('ok');
    expect(fs.readFileSync(P(dir, 'a.txt'), 'utf8')).toBe(content);
  });
  it('overrideArgs with a different path is re-checked and bound', async () => {
    const dir = tempDir({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', suffixes: ['.txt'] }));
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => ({ approved: true, overrideArgs: { ...(r.args as object), path: '/x.env' } }),
    });
    const o = await gated.callTool('write_file', { path: '/a.txt', content: 'z\n' });
    expect(o.ok).toBe(false);
    expect(fs.existsSync(P(dir, 'x.env'))).toBe(false);
  });
  it('lone surrogates refused in every text argument (model args and overrideArgs)', async () => {
    const dir = tempDir({ 'a.txt': 'a\nb\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const gated = new ApprovalToolset(toolset, { approve: approveAll() });
    const bad = ['x\uD800y', 'x\uDC00', '\uDBFF'];
    for (const s of bad) {
      expect(code(await gated.callTool('write_file', { path: '/a.txt', content: s }))).toBe(
        'invalid_argument',
      );
      expect(
        code(await gated.callTool('edit_file', { path: '/a.txt', old_string: 'a', new_string: s })),
      ).toBe('invalid_argument');
      expect(
        code(await gated.callTool('edit_file', { path: '/a.txt', old_string: s, new_string: 'q' })),
      ).toBe('invalid_argument');
      expect(code(await gated.callTool('write_file', { path: `/n${s}.txt`, content: 'q' }))).toBe(
        'invalid_argument',
      );
    }
    const g2 = new ApprovalToolset(toolset, {
      approve: (r) => ({ approved: true, overrideArgs: { ...(r.args as object), content: 'ok\uD834' } }),
    });
    expect(code(await g2.callTool('write_file', { path: '/a.txt', content: 'fine\n' }))).toBe(
      'invalid_argument',
    );
    const g3 = new ApprovalToolset(toolset, {
      approve: (r) => ({
        approved: true,
        overrideArgs: {
          ...(r.args as object),
          unified_diff: String((r.args as { unified_diff: string }).unified_diff).replace('+B', '+B\uDE00'),
        },
      }),
    });
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update('a\nb\n').digest('hex');
    expect(
      code(
        await g3.callTool('patch_file', {
          path: '/a.txt',
          base_sha256: sha,
          unified_diff: '@@ -1,2 +1,2 @@\n a\n-b\n+B\n',
        }),
      ),
    ).toBe('invalid_argument');
    const g4 = new ApprovalToolset(toolset, {
      approve: (r) => {
        const a = r.args as { operations: { content: string }[] };
        return {
          approved: true,
          overrideArgs: { ...a, operations: [{ ...a.operations[0], content: 'z\uD800' }] },
        };
      },
    });
    const read = await toolset.callTool('read_file', { path: '/a.txt', hashes: true });
    const anchor = String(String((read as { data: { content: string } }).data.content).split('\n')[0]).split(
      '|',
    )[0];
    expect(
      code(
        await g4.callTool('edit_lines', {
          path: '/a.txt',
          operations: [{ op: 'replace_line', hash: anchor, content: 'Z' }],
        }),
      ),
    ).toBe('invalid_argument');
    expect(fs.readFileSync(P(dir, 'a.txt'), 'utf8')).toBe('a\nb\n');
  });
});

describe('concurrency: no lost updates', () => {
  it('20 parallel approved edits through different spellings and links all apply', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i} alpha`);
    const dir = tempDir({ 'd/a.txt': `${lines.join('\n\n\n')}\n` });
    fs.symlinkSync('d', P(dir, 'dl'));
    fs.symlinkSync('d/a.txt', P(dir, 'al.txt'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const gated = new ApprovalToolset(toolset, {
      approve: async () => {
        await new Promise((r) => setTimeout(r, Math.random() * 5));
        return { approved: true };
      },
    });
    const spell = ['/d/a.txt', 'd/a.txt', '/./d/a.txt', '/dl/a.txt', '/al.txt', '/d/../d/a.txt'];
    const outs = await Promise.all(
      lines.map((l, i) =>
        gated.callTool(
          'edit_file',
          { path: spell[i % spell.length], old_string: l, new_string: `LINE ${i} beta` },
          { toolCallId: `c${i}` },
        ),
      ),
    );
    const final = fs.readFileSync(P(dir, 'd/a.txt'), 'utf8');
    const okCount = outs.filter((o) => o.ok).length;
    const applied = lines.filter((_, i) => final.includes(`LINE ${i} beta`)).length;
    expect(outs.map(code).filter((c) => c !== 'ok')).toEqual([]);
    expect(applied).toBe(okCount);
    expect(applied).toBe(20);
  });
  it('parallel write_file + edit_file: every ok result is reflected or superseded in order', async () => {
    const dir = tempDir({ 'a.txt': 'x0\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const gated = new ApprovalToolset(toolset, { approve: approveAll() });
    const outs = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        gated.callTool('edit_file', { path: '/a.txt', old_string: 'x0', new_string: `x0\ny${i}` }),
      ),
    );
    const final = fs.readFileSync(P(dir, 'a.txt'), 'utf8');
    outs.forEach((o, i) => {
      if (o.ok) expect(final).toContain(`y${i}`);
    });
  });
});
