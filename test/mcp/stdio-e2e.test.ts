import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { approveAll, call, codeOf, type StdioSession, startServer, textOf } from './stdio-client.js';

const sessions: StdioSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});
async function start(...args: Parameters<typeof startServer>) {
  const s = await startServer(...args);
  sessions.push(s);
  return s;
}

const project = () =>
  tempDir({
    'src/a.ts': 'const a = 1;\nconst b = 2;\n',
    'docs/readme.md': '# Docs\n',
    'outside/secret.txt': 'top secret\n',
  });
const mounts = (dir: string) => ['--mount', `${dir}/src:/src:rw`, '--mount', `${dir}/docs:/docs:ro`];
const hostFile = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');

describe('sandbox-approval mcp over stdio (SDK Client, child process)', () => {
  it('lists every tool; logs go to stderr', async () => {
    const dir = project();
    const s = await start(mounts(dir));
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'copy_file',
        'create_directory',
        'delete_file',
        'edit_file',
        'edit_lines',
        'get_file_info',
        'list_files',
        'move_file',
        'patch_file',
        'read_file',
        'read_many_files',
        'read_media_file',
        'write_file',
      ].sort(),
    );
    expect(s.stderr()).toContain('serving MCP on stdio');
  });

  it('runs every tool through approvals granted by elicitation', async () => {
    const dir = project();
    const s = await start(mounts(dir), approveAll);
    const read = await call(s, 'read_file', { path: '/src/a.ts', hashes: true });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toMatch(/1#\w+\|const a = 1;/);
    const many = await call(s, 'read_many_files', { paths: ['/src/a.ts', '/docs/readme.md'] });
    expect((many.structuredContent as { files: unknown[] }).files).toHaveLength(2);
    const list = await call(s, 'list_files', { path: '/', pattern: '**/*' });
    expect(JSON.stringify(list.structuredContent)).toContain('/docs/readme.md');

    expect((await call(s, 'write_file', { path: '/src/w.ts', content: 'one\ntwo\n' })).isError).toBeFalsy();
    const edited = await call(s, 'edit_file', { path: '/src/w.ts', old_string: 'one', new_string: 'uno' });
    expect(edited.isError).toBeFalsy();
    const base = (edited.structuredContent as { sha256: string }).sha256;
    const diff = '--- a/src/w.ts\n+++ b/src/w.ts\n@@ -1,2 +1,2 @@\n uno\n-two\n+dos\n';
    const patched = await call(s, 'patch_file', { path: '/src/w.ts', unified_diff: diff, base_sha256: base });
    expect(patched.isError, textOf(patched)).toBeFalsy();
    expect(hostFile(dir, 'src/w.ts')).toBe('uno\ndos\n');

    const hashed = await call(s, 'read_file', { path: '/src/w.ts', hashes: true });
    const anchor = textOf(hashed).split('\n')[2]!.split('|')[0]!; // line 2: "2#HASH|dos"
    const lines = await call(s, 'edit_lines', {
      path: '/src/w.ts',
      operations: [{ op: 'replace_line', hash: anchor, content: 'tres' }],
    });
    expect(lines.isError, textOf(lines)).toBeFalsy();
    expect(hostFile(dir, 'src/w.ts')).toBe('uno\ntres\n');

    expect(
      (await call(s, 'copy_file', { source: '/src/w.ts', destination: '/src/c.ts' })).isError,
    ).toBeFalsy();
    expect(
      (await call(s, 'move_file', { source: '/src/c.ts', destination: '/src/m.ts' })).isError,
    ).toBeFalsy();
    expect((await call(s, 'delete_file', { path: '/src/m.ts' })).isError).toBeFalsy();
    expect((await call(s, 'create_directory', { path: '/src/new/dir' })).isError).toBeFalsy();
    expect(fs.readdirSync(path.join(dir, 'src')).sort()).toEqual(['a.ts', 'new', 'w.ts']);
    // One prompt per change (write, edit, patch, edit_lines, copy, move, delete, mkdir); reads are not asked.
    expect(s.asked).toHaveLength(8);
  });

  it('deny mode (client without elicitation): a write is refused with how to enable approvals', async () => {
    const dir = project();
    const s = await start([...mounts(dir), '--approve', 'deny']);
    const r = await call(s, 'edit_file', {
      path: '/src/a.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 3;',
    });
    expect(r.isError).toBe(true);
    expect(codeOf(r)).toBe('approval_blocked');
    expect(textOf(r)).toMatch(/--approve tty/);
    expect(hostFile(dir, 'src/a.ts')).toBe('const a = 1;\nconst b = 2;\n');
    expect((await call(s, 'read_file', { path: '/src/a.ts' })).isError).toBeFalsy();
  });

  it('an approved edit through elicitation; the message shows what, where and the diff', async () => {
    const dir = project();
    const s = await start(mounts(dir), approveAll);
    const r = await call(s, 'edit_file', {
      path: '/src/a.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 3;',
    });
    expect(r.isError).toBeFalsy();
    expect(hostFile(dir, 'src/a.ts')).toBe('const a = 1;\nconst b = 3;\n');
    expect(s.asked[0]).toContain('Approve this edit_file call?');
    expect(s.asked[0]).toContain('/src/a.ts');
    expect(s.asked[0]).toMatch(/ -const b = .*2/);
    expect(s.asked[0]).toMatch(/ \+const b = .*3/);
  });

  it('a denied elicitation with a note → approval_denied carrying the note; cancel writes nothing', async () => {
    const dir = project();
    const answers = [
      { action: 'accept' as const, content: { decision: 'deny', note: 'rename b to beta instead' } },
      { action: 'cancel' as const },
    ];
    const s = await start(mounts(dir), () => answers.shift()!);
    const args = { path: '/src/a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' };
    const denied = await call(s, 'edit_file', args);
    expect(codeOf(denied)).toBe('approval_denied');
    expect(textOf(denied)).toContain('rename b to beta instead');
    const cancelled = await call(s, 'write_file', { path: '/src/new.ts', content: 'x\n' });
    expect(codeOf(cancelled)).toBe('approval_denied');
    expect(hostFile(dir, 'src/a.ts')).toBe('const a = 1;\nconst b = 2;\n');
    expect(fs.existsSync(path.join(dir, 'src/new.ts'))).toBe(false);
  });

  it('approve and remember for the mount: later changes under it are not asked again', async () => {
    const dir = project();
    const s = await start(mounts(dir), () => ({ action: 'accept', content: { decision: 'approve_mount' } }));
    await call(s, 'write_file', { path: '/src/x.ts', content: 'x\n' });
    await call(s, 'write_file', { path: '/src/y.ts', content: 'y\n' });
    expect(s.asked).toHaveLength(1);
    expect(hostFile(dir, 'src/y.ts')).toBe('y\n');
  });

  it('stale approval: the file changed while the person was looking → stale_approval, the change is not applied', async () => {
    const dir = project();
    const s = await start(mounts(dir), () => {
      fs.writeFileSync(path.join(dir, 'src/a.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
      return approveAll();
    });
    const r = await call(s, 'edit_file', {
      path: '/src/a.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 9;',
    });
    expect(codeOf(r)).toBe('stale_approval');
    expect(hostFile(dir, 'src/a.ts')).toBe('const a = 1;\nconst b = 2;\nconst c = 3;\n');
  });

  it('policy mode (client without elicitation): pre-approved paths run, others are refused', async () => {
    const dir = project();
    const policy = path.join(dir, 'policy.json');
    fs.writeFileSync(
      policy,
      JSON.stringify({
        rules: [{ tools: ['write_file', 'edit_file'], paths: ['/src/gen/**'], decision: 'approve' }],
      }),
    );
    const s = await start([...mounts(dir), '--approve', 'policy', '--policy', policy]);
    expect((await call(s, 'write_file', { path: '/src/gen/out.ts', content: 'ok\n' })).isError).toBeFalsy();
    expect(hostFile(dir, 'src/gen/out.ts')).toBe('ok\n');
    const refused = await call(s, 'write_file', { path: '/src/other.ts', content: 'no\n' });
    expect(codeOf(refused)).toBe('approval_blocked');
    expect(textOf(refused)).toMatch(/policy/);
    expect(fs.existsSync(path.join(dir, 'src/other.ts'))).toBe(false);
  });
});
