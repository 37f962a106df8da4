import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyChangeSet, decideAll, FileSystemToolset, Sandbox, undoChangeSet } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

function setup(files: Record<string, string | Buffer>) {
  const dir = tempDir(files);
  const sandbox = Sandbox.fromDirectory(dir, { mode: 'rw' });
  const toolset = new FileSystemToolset(sandbox, { staging: true });
  return { dir, sandbox, toolset, staging: toolset.stage() };
}

describe('red-team: staged change sets', () => {
  it('base replaced by same bytes, new inode → stale, nothing applied', async () => {
    const { dir, toolset, staging } = setup({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' });
    await toolset.callTool('edit_file', { path: '/b.txt', old_string: 'two', new_string: 'TWO' });
    const set = staging.changeSet();
    fs.writeFileSync(path.join(dir, 'b.tmp'), 'two\n');
    fs.renameSync(path.join(dir, 'b.tmp'), path.join(dir, 'b.txt'));
    const r = await staging.apply(decideAll(set, 'accept'));
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).toContain('b.txt');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('staged create whose name appears on disk meanwhile → not clobbered', async () => {
    const { dir, toolset, staging } = setup({ 'a.txt': 'one\n' });
    await toolset.callTool('write_file', { path: '/new.txt', content: 'agent\n' });
    await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' });
    const set = staging.changeSet();
    fs.writeFileSync(path.join(dir, 'new.txt'), 'human work\n');
    const r = await staging.apply(decideAll(set, 'accept'));
    expect(fs.readFileSync(path.join(dir, 'new.txt'), 'utf8')).toBe('human work\n');
    expect(r.ok).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('base replaced by a symlink to same content → stale', async () => {
    const { dir, toolset, staging } = setup({ 'a.txt': 'one\n', 'other.txt': 'one\n' });
    await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' });
    const set = staging.changeSet();
    fs.rmSync(path.join(dir, 'a.txt'));
    fs.symlinkSync('other.txt', path.join(dir, 'a.txt'));
    const r = await staging.apply(decideAll(set, 'accept'));
    expect(r.ok).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'other.txt'), 'utf8')).toBe('one\n');
    expect(fs.lstatSync(path.join(dir, 'a.txt')).isSymbolicLink()).toBe(true);
  });

  it('parent directory swapped (same content, new dir) → stale', async () => {
    const { dir, toolset, staging } = setup({ 'd/a.txt': 'one\n' });
    await toolset.callTool('edit_file', { path: '/d/a.txt', old_string: 'one', new_string: 'ONE' });
    const set = staging.changeSet();
    fs.renameSync(path.join(dir, 'd'), path.join(dir, 'd-old'));
    fs.mkdirSync(path.join(dir, 'd'));
    fs.copyFileSync(path.join(dir, 'd-old/a.txt'), path.join(dir, 'd/a.txt'));
    const r = await staging.apply(decideAll(set, 'accept'));
    expect(r.ok).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'd/a.txt'), 'utf8')).toBe('one\n');
    expect(fs.readFileSync(path.join(dir, 'd-old/a.txt'), 'utf8')).toBe('one\n');
  });

  it('move chain a→b, b→c, then accept: a gone, c has content, b not left', async () => {
    const { dir, toolset, staging } = setup({ 'a.txt': 'A\n' });
    const r1 = await toolset.callTool('move_file', { source: '/a.txt', destination: '/b.txt' });
    const r2 = await toolset.callTool('move_file', { source: '/b.txt', destination: '/c.txt' });
    expect(r1.ok && r2.ok).toBe(true);
    const set = staging.changeSet();
    const r = await staging.apply(decideAll(set, 'accept'));
    expect(r.ok).toBe(true);
    expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'c.txt'), 'utf8')).toBe('A\n');
  });

  it('move a→b, reject b (the move), accept deletion side: nothing lost', async () => {
    const { dir, toolset, staging } = setup({ 'a.txt': 'A\n' });
    await toolset.callTool('move_file', { source: '/a.txt', destination: '/b.txt' });
    const set = staging.changeSet();
    // accept every file entry that is not the destination
    const files: Record<string, unknown> = {};
    for (const f of set.files) files[f.path] = { action: f.path === '/b.txt' ? 'reject' : 'accept' };
    const r = await staging.apply({ changeSetId: set.id, files } as never);
    // whatever happens, content A must still exist somewhere
    const a = fs.existsSync(path.join(dir, 'a.txt'))
      ? fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')
      : null;
    const b = fs.existsSync(path.join(dir, 'b.txt'))
      ? fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')
      : null;
    expect([a, b]).toContain('A\n');
    void r;
  });

  it('copy then delete source, reject the copy → source not deleted silently', async () => {
    const { dir, toolset, staging } = setup({ 'a.txt': 'A\n' });
    await toolset.callTool('copy_file', { source: '/a.txt', destination: '/b.txt' });
    await toolset.callTool('delete_file', { path: '/a.txt' });
    const set = staging.changeSet();
    const files: Record<string, unknown> = {};
    for (const f of set.files) files[f.path] = { action: f.path === '/b.txt' ? 'reject' : 'accept' };
    await staging.apply({ changeSetId: set.id, files } as never);
    // deleting a is accepted explicitly: fine. But b rejected: must not exist.
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(false);
  });

  it('journal dir is not writable/readable/listable by agent tools', async () => {
    const { dir, sandbox, toolset, staging } = setup({ 'a.txt': 'one\n' });
    fs.mkdirSync(path.join(dir, '.sandbox-approval-changesets'), { recursive: true });
    const plain = new FileSystemToolset(sandbox);
    const w = await toolset.callTool('write_file', {
      path: '/.sandbox-approval-changesets/x.json',
      content: '{}',
    });
    const set = staging.changeSet();
    if (w.ok) {
      await staging.apply(decideAll(set, 'accept'));
    }
    expect(fs.existsSync(path.join(dir, '.sandbox-approval-changesets/x.json'))).toBe(false);
    const l = await plain.callTool('list_files', { path: '/' });
    expect(JSON.stringify(l)).not.toContain('sandbox-approval-changesets');
    const l2 = await plain.callTool('list_files', { path: '/', pattern: '**/*' });
    expect(JSON.stringify(l2)).not.toContain('sandbox-approval-changesets');
  });

  it('per-hunk: rejected hunks never land, adjacent hunks', async () => {
    const base = Array.from({ length: 10 }, (_, i) => `l${i}`).join('\n') + '\n';
    const { dir, toolset, staging } = setup({ 'a.txt': base });
    const w = await toolset.callTool('write_file', {
      path: '/a.txt',
      content: base.replace('l3', 'X3').replace('l4', 'X4').replace('l8', 'X8'),
    });
    expect(w.ok).toBe(true);
    const set = staging.changeSet();
    const f = set.files[0]!;
    expect(f.hunks.length).toBeGreaterThanOrEqual(1);
    const hunks: Record<string, 'accept' | 'reject'> = {};
    hunks[f.hunks[f.hunks.length - 1]!.id] = 'accept';
    const r = await staging.apply({
      changeSetId: set.id,
      files: { '/a.txt': { action: 'hunks', hunks, notes: {} } },
    });
    expect(r.ok).toBe(true);
    const out = fs.readFileSync(path.join(dir, 'a.txt'), 'utf8');
    expect(out).toContain('X8');
    expect(out).not.toContain('X3');
  });

  it('tampered serialised set: staged.text altered, id and sha256 kept → must be refused', async () => {
    const { dir, sandbox, toolset, staging } = setup({ 'a.txt': 'one\n' });
    await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' });
    const set = JSON.parse(JSON.stringify(staging.changeSet()));
    set.files[0].staged.text = 'EVIL\n'; // id and staged.sha256 still those of 'ONE\n'
    const r = await applyChangeSet(sandbox, set, decideAll(set, 'accept'));
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).not.toContain('EVIL');
    expect(r.ok).toBe(false);
  });

  it('tampered serialised set: staged replaced by a string → file must not be deleted', async () => {
    const { dir, sandbox, toolset, staging } = setup({ 'a.txt': 'one\n' });
    await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' });
    const set = JSON.parse(JSON.stringify(staging.changeSet()));
    set.files[0].staged = 'EVIL\n'; // malformed: status still "modified"
    const r = await applyChangeSet(sandbox, set, decideAll(set, 'accept'));
    expect(fs.existsSync(path.join(dir, 'a.txt')), `result=${JSON.stringify(r).slice(0, 200)}`).toBe(true);
  });

  it('tampered change set: path redirected to another file → refused', async () => {
    const { dir, sandbox, toolset, staging } = setup({ 'a.txt': 'one\n', 'secret.txt': 'one\n' });
    await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' });
    const set = JSON.parse(JSON.stringify(staging.changeSet()));
    set.files[0].path = '/secret.txt';
    const d = decideAll(set, 'accept');
    await applyChangeSet(sandbox, set, d);
    expect(fs.readFileSync(path.join(dir, 'secret.txt'), 'utf8')).toBe('one\n');
  });

  it('undo after the file was changed again → refused, later work kept', async () => {
    const { dir, sandbox, toolset, staging } = setup({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' });
    await toolset.callTool('edit_file', { path: '/b.txt', old_string: 'two', new_string: 'TWO' });
    const r = await staging.apply(decideAll(staging.changeSet(), 'accept'));
    expect(r.ok).toBe(true);
    fs.writeFileSync(path.join(dir, 'b.txt'), 'human\n');
    const u = await undoChangeSet(sandbox, (r as unknown as { applied: never }).applied);
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('human\n');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('ONE\n');
    expect((u as { ok: boolean }).ok).toBe(false);
  });

  it('CRLF, no final newline and binary preserved by per-hunk apply', async () => {
    const base = 'a\r\nb\r\nc';
    const bin = Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]);
    const { dir, toolset, staging } = setup({ 'a.txt': base, 'b.bin': bin });
    await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'b', new_string: 'B' });
    await toolset.callTool('write_file', { path: '/c.txt', content: 'x' });
    const set = staging.changeSet();
    const r = await staging.apply(decideAll(set, 'accept'));
    expect(r.ok).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\r\nB\r\nc');
    expect(fs.readFileSync(path.join(dir, 'b.bin')).equals(bin)).toBe(true);
  });

  it('staged reads see staged state (read_file, list_files)', async () => {
    const { toolset } = setup({ 'a.txt': 'one\n' });
    await toolset.callTool('write_file', { path: '/n.txt', content: 'new\n' });
    await toolset.callTool('delete_file', { path: '/a.txt' });
    const l = await toolset.callTool('list_files', { path: '/' });
    const s = JSON.stringify(l);
    expect(s).toContain('n.txt');
    expect(s).not.toContain('a.txt');
    const r = await toolset.callTool('read_file', { path: '/a.txt' });
    expect(r.ok).toBe(false);
  });
});
