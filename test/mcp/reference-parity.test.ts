import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { approveAll, call, codeOf, type StdioSession, startServer, textOf } from './stdio-client.js';

// End to end through the SDK Client over stdio. The client validates every successful
// result's structuredContent against the tool's outputSchema, so each call here also checks it.

const sessions: StdioSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});
async function start(...args: Parameters<typeof startServer>) {
  const s = await startServer(...args);
  sessions.push(s);
  return s;
}

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const project = () =>
  tempDir({ 'src/a.ts': 'const a = 1;\nconst b = 2;\n', 'src/long.txt': lines(50), 'img/dot.png': PNG });
const mounts = (dir: string) => ['--mount', `${dir}/src:/src:rw`, '--mount', `${dir}/img:/img:ro`];
const snapshot = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((p) => {
      const full = path.join(dir, p);
      return fs.statSync(full).isFile() ? `${p}:${fs.readFileSync(full, 'base64')}` : `${p}/`;
    });

describe('MCP: what the reference filesystem server offers, through the SDK client', () => {
  it('declares tools.listChanged and an outputSchema on every tool', async () => {
    const s = await start(mounts(project()));
    expect(s.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const { tools } = await s.client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(13);
    for (const t of tools) {
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    }
    const edit = tools.find((t) => t.name === 'edit_file')!;
    expect(Object.keys(edit.inputSchema.properties ?? {})).toContain('dryRun');
  });

  it('unknown arguments are refused by name and nothing is written', async () => {
    const dir = project();
    const s = await start(mounts(dir), approveAll);
    const r = await call(s, 'edit_file', {
      path: '/src/a.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 3;',
      dry_run: true,
    });
    expect(codeOf(r)).toBe('invalid_argument');
    expect(textOf(r)).toContain('"dry_run"');
    const read = await call(s, 'read_file', { path: '/src/a.ts', encoding: 'utf8' });
    expect(codeOf(read)).toBe('invalid_argument');
    expect(textOf(read)).toContain('"encoding"');
    expect(s.asked).toHaveLength(0);
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('dryRun on every writing tool: the payload comes back, nobody is asked, nothing changes', async () => {
    const dir = project();
    const s = await start(mounts(dir), approveAll);
    const before = snapshot(dir);
    const read = await call(s, 'read_file', { path: '/src/a.ts', hashes: true });
    const anchor = textOf(read).split('\n')[2]!.split('|')[0]!;
    const base = (read.structuredContent as { sha256: string }).sha256;
    const calls: [string, Record<string, unknown>][] = [
      ['write_file', { path: '/src/new.ts', content: 'x\n' }],
      ['edit_file', { path: '/src/a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }],
      [
        'patch_file',
        {
          path: '/src/a.ts',
          base_sha256: base,
          unified_diff:
            '--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 0;\n const b = 2;\n',
        },
      ],
      ['edit_lines', { path: '/src/a.ts', operations: [{ op: 'replace_line', hash: anchor, content: 'b' }] }],
      ['delete_file', { path: '/src/a.ts' }],
      ['move_file', { source: '/src/a.ts', destination: '/src/b.ts' }],
      ['copy_file', { source: '/src/a.ts', destination: '/src/c.ts' }],
      ['create_directory', { path: '/src/newdir/sub' }],
    ];
    for (const [name, args] of calls) {
      const r = await call(s, name, { ...args, dryRun: true });
      expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
      const data = r.structuredContent as { dry_run: boolean; approval_required: boolean; payload?: unknown };
      expect(data.dry_run, name).toBe(true);
      expect(data.approval_required, name).toBe(true);
      expect(data.payload, name).toBeDefined();
      expect(textOf(r), name).toMatch(/^Dry run \(nothing was changed\)/);
    }
    const edit = await call(s, 'edit_file', {
      path: '/src/a.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 3;',
      dryRun: true,
    });
    expect(textOf(edit)).toContain('-const b = 2;\n+const b = 3;');
    expect(s.asked).toHaveLength(0);
    expect(snapshot(dir)).toEqual(before);
    // A dry run of a call that would be refused is refused the same way.
    const ro = await call(s, 'write_file', { path: '/img/x.png', content: 'x', dryRun: true });
    expect(ro.isError).toBe(true);
  });

  it('get_file_info speaks virtual paths only', async () => {
    const dir = project();
    const s = await start(mounts(dir));
    const file = await call(s, 'get_file_info', { path: '/src/a.ts' });
    expect(file.isError, textOf(file)).toBeFalsy();
    const info = file.structuredContent as Record<string, unknown>;
    expect(info).toMatchObject({ path: '/src/a.ts', type: 'file', size: 26, readable: true, writable: true });
    expect(info.permissions).toMatch(/^[0-7]{3}$/);
    expect(Date.parse(info.modified as string)).toBeGreaterThan(0);
    const folder = await call(s, 'get_file_info', { path: '/img' });
    expect(folder.structuredContent).toMatchObject({ path: '/img', type: 'directory', writable: false });
    expect(JSON.stringify([file, folder])).not.toContain(dir);
    expect(codeOf(await call(s, 'get_file_info', { path: '/etc/passwd' }))).toBe('approval_blocked');
  });

  it('read_media_file returns image content with its MIME type, within the size cap', async () => {
    const dir = project();
    const s = await start(mounts(dir));
    const r = await call(s, 'read_media_file', { path: '/img/dot.png' });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.content[0]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') });
    expect(r.structuredContent).toMatchObject({
      path: '/img/dot.png',
      mime_type: 'image/png',
      bytes: PNG.length,
    });
    expect(codeOf(await call(s, 'read_media_file', { path: '/src/a.ts' }))).toBe('invalid_argument');

    const small = path.join(dir, 'small.json');
    fs.writeFileSync(
      small,
      JSON.stringify({ mounts: [{ hostPath: 'img', mountPoint: '/img', maxFileBytes: 40 }] }),
    );
    const capped = await start(['--config', small]);
    const big = await call(capped, 'read_media_file', { path: '/img/dot.png' });
    expect(codeOf(big)).toBe('file_too_large');
  });

  it('read_file head and tail', async () => {
    const s = await start(mounts(project()));
    const head = await call(s, 'read_file', { path: '/src/long.txt', head: 3 });
    expect(head.structuredContent).toMatchObject({
      content: 'line 1\nline 2\nline 3',
      start_line: 1,
      end_line: 3,
    });
    const tail = await call(s, 'read_file', { path: '/src/long.txt', tail: 2 });
    expect(tail.structuredContent).toMatchObject({
      content: 'line 49\nline 50',
      start_line: 49,
      end_line: 50,
    });
    const both = await call(s, 'read_file', { path: '/src/long.txt', head: 1, tail: 1 });
    expect(codeOf(both)).toBe('invalid_argument');
  });

  it('move_file moves a directory: the approval lists what moves; a dry run moves nothing', async () => {
    const dir = tempDir({ 'src/pkg/a.ts': 'a\n', 'src/pkg/inner/b.ts': 'b\n', 'docs/d.md': 'd\n' });
    const s = await start(['--mount', `${dir}/src:/src:rw`, '--mount', `${dir}/docs:/docs:ro`], approveAll);
    const preview = await call(s, 'move_file', {
      source: '/src/pkg',
      destination: '/src/lib/pkg2',
      dryRun: true,
    });
    expect(preview.isError, textOf(preview)).toBe(true); // the destination's parent must exist
    const dry = await call(s, 'move_file', { source: '/src/pkg', destination: '/src/pkg2', dryRun: true });
    expect(dry.isError, textOf(dry)).toBeFalsy();
    expect((dry.structuredContent as { payload: { entries: string[] } }).payload.entries).toEqual([
      'a.ts',
      'inner/',
      'inner/b.ts',
    ]);
    expect(fs.existsSync(path.join(dir, 'src/pkg/a.ts'))).toBe(true);
    const moved = await call(s, 'move_file', { source: '/src/pkg', destination: '/src/pkg2' });
    expect(moved.isError, textOf(moved)).toBeFalsy();
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toContain('Move the directory /src/pkg → /src/pkg2');
    expect(s.asked[0]).toContain('inner/b.ts');
    expect(fs.readFileSync(path.join(dir, 'src/pkg2/inner/b.ts'), 'utf8')).toBe('b\n');
    expect(fs.existsSync(path.join(dir, 'src/pkg'))).toBe(false);
    // Never out of a read-only mount, never into itself, never onto an existing path.
    expect((await call(s, 'move_file', { source: '/docs', destination: '/src/docs' })).isError).toBe(true);
    expect((await call(s, 'move_file', { source: '/src/pkg2', destination: '/src/pkg2/x' })).isError).toBe(
      true,
    );
    fs.mkdirSync(path.join(dir, 'src/taken'));
    expect(codeOf(await call(s, 'move_file', { source: '/src/pkg2', destination: '/src/taken' }))).toBe(
      'invalid_argument',
    );
  });

  it('a directory that changed while the person was looking is not moved (stale_approval)', async () => {
    const dir = tempDir({ 'src/pkg/a.ts': 'a\n' });
    const s = await start(['--mount', `${dir}/src:/src:rw`], () => {
      fs.writeFileSync(path.join(dir, 'src/pkg/late.ts'), 'late\n');
      return approveAll();
    });
    const r = await call(s, 'move_file', { source: '/src/pkg', destination: '/src/moved' });
    expect(codeOf(r)).toBe('stale_approval');
    expect(fs.existsSync(path.join(dir, 'src/pkg/late.ts'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'src/moved'))).toBe(false);
  });
});
