import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { undoChangeSet } from '../../src/staging/apply-change-set.js';
import { decideAll } from '../../src/staging/decisions.js';
import { recoverChangeSets } from '../../src/staging/recover.js';
import { tempDir } from '../helpers/temp-project.js';
import { err, ok } from '../tools/fixture.js';
import { snapshot, stagedProject } from './fixture.js';

describe('staging mode', () => {
  it('records every writing tool without touching the disk, and reads see the staged state', async () => {
    const { dir, toolset, staging } = stagedProject({
      'a.txt': 'one\ntwo\n',
      'b.txt': 'bee\n',
      'c.txt': 'sea\n',
    });
    const before = snapshot(dir);
    ok(await toolset.callTool('write_file', { path: '/new/n.txt', content: 'new\n' }));
    ok(await toolset.callTool('edit_file', { path: '/a.txt', old_string: 'two', new_string: 'TWO' }));
    ok(await toolset.callTool('delete_file', { path: '/b.txt' }));
    ok(await toolset.callTool('move_file', { source: '/c.txt', destination: '/d.txt' }));
    ok(await toolset.callTool('copy_file', { source: '/a.txt', destination: '/e.txt' }));
    ok(await toolset.callTool('create_directory', { path: '/empty/deep' }));
    expect(snapshot(dir)).toEqual(before);

    expect(ok<{ content: string }>(await toolset.callTool('read_file', { path: '/a.txt' })).content).toBe(
      'one\nTWO',
    );
    expect(err(await toolset.callTool('read_file', { path: '/b.txt' })).code).toBe('not_found');
    expect(err(await toolset.callTool('read_file', { path: '/c.txt' })).code).toBe('not_found');
    const hashed = ok<{ content: string }>(
      await toolset.callTool('read_file', { path: '/d.txt', hashes: true }),
    );
    expect(hashed.content).toMatch(/^1#\w+\|sea$/);
    const list = ok<{ entries: string[] }>(await toolset.callTool('list_files', {}));
    expect(list.entries).toEqual([
      '/a.txt',
      '/d.txt',
      '/e.txt',
      '/empty/',
      '/empty/deep/',
      '/new/',
      '/new/n.txt',
    ]);
    const many = ok<{ files: { path: string; content?: string }[] }>(
      await toolset.callTool('read_many_files', { paths: ['/new/n.txt', '/e.txt'] }),
    );
    expect(many.files.map((f) => f.content)).toEqual(['new\n', 'one\nTWO\n']);
    // Same validation as on disk: an existing (staged) destination is refused without overwrite.
    expect(err(await toolset.callTool('copy_file', { source: '/a.txt', destination: '/d.txt' })).code).toBe(
      'invalid_argument',
    );

    const set = staging.changeSet();
    expect(set.files.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
      ['/new/n.txt', 'created', 1, 0],
      ['/a.txt', 'modified', 1, 1],
      ['/b.txt', 'deleted', 0, 1],
      ['/d.txt', 'moved', 0, 0],
      ['/e.txt', 'created', 2, 0],
    ]);
    expect(JSON.parse(JSON.stringify(set))).toEqual(set);
    const result = await staging.apply(decideAll(set, 'accept'));
    expect(result.ok).toBe(true);
    expect(snapshot(dir)).toEqual({
      'a.txt': 'one\nTWO\n',
      'd.txt': 'sea\n',
      'e.txt': 'one\nTWO\n',
      'new/n.txt': 'new\n',
    });
    expect(fs.statSync(path.join(dir, 'empty/deep')).isDirectory()).toBe(true);
    expect(staging.changeSet().files).toEqual([]);
    if (!result.ok) return;
    const undone = await undoChangeSet(toolset.sandbox, result.applied);
    expect(undone.ok).toBe(true);
    expect(snapshot(dir)).toEqual(before);
  });

  it('applies nothing and names the file when a base changed on disk', async () => {
    const { dir, toolset, staging } = stagedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    ok(await toolset.callTool('write_file', { path: '/a.txt', content: 'A\n' }));
    ok(await toolset.callTool('write_file', { path: '/b.txt', content: 'B\n' }));
    fs.writeFileSync(path.join(dir, 'b.txt'), 'changed\n');
    const result = await staging.apply(decideAll(staging.changeSet(), 'accept'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('stale_approval');
    expect(result.error.details).toEqual({ path: '/b.txt' });
    expect(result.summary).toMatch(/^Nothing was applied: \/b.txt changed on disk/);
    expect(snapshot(dir)).toEqual({ 'a.txt': 'a\n', 'b.txt': 'changed\n' });
  });

  it('refuses decisions made for another set, and summarises rejections with notes', async () => {
    const { dir, toolset, staging } = stagedProject({ 'a.txt': '1\n2\n3\n4\n5\n6\n7\n8\n9\n' });
    ok(await toolset.callTool('edit_file', { path: '/a.txt', old_string: '2', new_string: 'two' }));
    const first = staging.changeSet();
    ok(await toolset.callTool('edit_file', { path: '/a.txt', old_string: '8', new_string: 'eight' }));
    const stale = await staging.apply(decideAll(first, 'accept'));
    expect(stale.ok).toBe(false);
    const set = staging.changeSet();
    const [h1, h2] = set.files[0]!.hunks;
    const result = await staging.apply({
      changeSetId: set.id,
      files: {
        '/a.txt': {
          action: 'hunks',
          hunks: { [h1!.id]: 'accept', [h2!.id]: 'reject' },
          notes: { [h2!.id]: 'keep 8' },
        },
      },
      note: 'thanks',
    });
    expect(result.ok).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('1\ntwo\n3\n4\n5\n6\n7\n8\n9\n');
    expect(result.summary).toContain('partly applied: 1 change(s) accepted, 1 rejected at line 8 ("keep 8")');
    expect(result.summary).toContain('Reviewer\'s note: "thanks"');
  });

  it('recovers a committed journal forward and an uncommitted one back', async () => {
    const { dir, toolset, staging, sandbox } = stagedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    ok(await toolset.callTool('write_file', { path: '/a.txt', content: 'A\n' }));
    ok(await toolset.callTool('write_file', { path: '/b.txt', content: 'B\n' }));
    const set = staging.changeSet();
    class Stop extends Error {}
    // A failure after the commit point (here: the hook throws, as a crash would stop it) leaves the journal.
    const stopAt = (step: string) => (s: string) => {
      if (s === step) throw new Stop(s);
    };
    // Interrupted (as a crash would) after the first rename: recovery must finish the set.
    await expect(staging.apply(decideAll(set, 'accept'), { hook: stopAt('renamed:0') })).rejects.toThrow(
      /committed but could not be finished/,
    );
    expect(snapshot(dir)['a.txt']).toBe('A\n');
    expect(snapshot(dir)['b.txt']).toBe('b\n');
    await rewriteJournalPid(dir);
    expect(await recoverChangeSets(sandbox)).toEqual({ rolledForward: 1, rolledBack: 0 });
    expect(snapshot(dir)).toEqual({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
  });
});

/** Journals of live processes are left alone: pretend ours belongs to a dead one. */
async function rewriteJournalPid(dir: string): Promise<void> {
  const base = path.join(dir, '.sandbox-approval-changesets');
  for (const name of fs.readdirSync(base)) {
    // above Linux's default pid_max: never a live process
    fs.renameSync(path.join(base, name), path.join(base, name.replace(/^\d+-/, `${2 ** 22 + 12345}-`)));
  }
}

describe('staging mode: patch_file and edit_lines', () => {
  it('patch against the staged content, then edit_lines by anchors from a staged hashed read', async () => {
    const { dir, toolset, staging } = stagedProject({ 'p.txt': 'a\nb\nc\n' });
    const first = ok<{ sha256: string }>(await toolset.callTool('read_file', { path: '/p.txt' }));
    ok(
      await toolset.callTool('patch_file', {
        path: '/p.txt',
        base_sha256: first.sha256,
        unified_diff: '--- a/p.txt\n+++ b/p.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
      }),
    );
    const hashed = ok<{ content: string; sha256: string }>(
      await toolset.callTool('read_file', { path: '/p.txt', hashes: true }),
    );
    const anchor = hashed.content.split('\n')[2]!.split('|')[0]!; // line 3: "c"
    ok(
      await toolset.callTool('edit_lines', {
        path: '/p.txt',
        operations: [{ op: 'replace_line', hash: anchor.split('#')[1], line: 3, content: 'C' }],
      }),
    );
    // A stale base is refused as on disk (the staged content moved on).
    const stale = await toolset.callTool('patch_file', {
      path: '/p.txt',
      base_sha256: first.sha256,
      unified_diff: '--- a/p.txt\n+++ b/p.txt\n@@ -1,1 +1,1 @@\n-a\n+A\n',
    });
    expect(stale.ok).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'p.txt'), 'utf8')).toBe('a\nb\nc\n');
    const set = staging.changeSet();
    // Adjacent changed lines form one hunk.
    expect(set.files[0]!.hunks.map((h) => [h.removed, h.added])).toEqual([
      [
        ['b\n', 'c\n'],
        ['B\n', 'C\n'],
      ],
    ]);
    expect((await staging.apply(decideAll(set, 'accept'))).ok).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'p.txt'), 'utf8')).toBe('a\nB\nC\n');
  });
});

describe('apply through held directories', () => {
  it('a parent directory swapped for a symlink to outside after staging: nothing is written anywhere', async () => {
    const { dir, toolset, staging } = stagedProject({ 'sub/keep.txt': 'k\n', 'a.txt': 'a\n' });
    const outside = tempDir({});
    ok(await toolset.callTool('write_file', { path: '/a.txt', content: 'A\n' }));
    ok(await toolset.callTool('write_file', { path: '/sub/x.txt', content: 'x\n' }));
    const set = staging.changeSet();
    // Swapped after the paths were resolved and the bases verified, before anything is written.
    const result = await staging.apply(decideAll(set, 'accept'), {
      hook: (step) => {
        if (step !== 'journal') return;
        fs.renameSync(path.join(dir, 'sub'), path.join(dir, 'moved-away'));
        fs.symlinkSync(outside, path.join(dir, 'sub'));
      },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('path_not_in_sandbox');
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});
