import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalPayloadSchema } from '../../src/contract/payloads.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { read, tempDir } from '../helpers/temp-project.js';
import { err, ok, project } from './fixture.js';

async function payloadOf(toolset: FileSystemToolset, name: string, args: unknown) {
  const result = await toolset.needsApproval(name, args);
  if (result.status !== 'needs_approval')
    throw new Error(`expected needs_approval, got ${JSON.stringify(result)}`);
  ApprovalPayloadSchema.parse(result.payload);
  return result.payload as Record<string, unknown>;
}

describe('approval payloads', () => {
  it('write: new file preview, and an overwrite with its diff and previous size', async () => {
    const { toolset } = project({ 'old.txt': 'a\nb\n' });
    const content = Array.from({ length: 80 }, (_, i) => `row ${i}`).join('\n');
    const created = await payloadOf(toolset, 'write_file', { path: '/new.txt', content });
    expect(created).toMatchObject({
      type: 'write',
      path: '/new.txt',
      mount: '/',
      fileExists: false,
      baseSha256: null,
    });
    expect(created).toMatchObject({ contentLines: 80, previewTruncated: true, existingLines: null });
    expect(String(created.preview).split('\n')).toHaveLength(51);
    const over = await payloadOf(toolset, 'write_file', { path: '/old.txt', content: 'a\nc\n' });
    expect(over).toMatchObject({
      fileExists: true,
      existingLines: 2,
      existingBytes: 4,
      added: 1,
      removed: 1,
    });
    expect(over.unifiedDiff).toContain('-b');
    expect(over.baseSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('edit: diff, match line, count, context and file size', async () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const { toolset } = project({ 'a.txt': text });
    const p = await payloadOf(toolset, 'edit_file', {
      path: '/a.txt',
      old_string: 'line 10',
      new_string: 'LINE TEN',
    });
    expect(p).toMatchObject({
      type: 'edit',
      matchLine: 10,
      matchCount: 1,
      matchLevel: 'exact',
      replaceAll: false,
    });
    expect(p).toMatchObject({
      oldString: 'line 10',
      newString: 'LINE TEN',
      fileLines: 20,
      added: 1,
      removed: 1,
    });
    expect(p.contextBefore).toBe('line 7\nline 8\nline 9');
    expect(p.contextAfter).toBe('line 11\nline 12\nline 13');
    expect(String(p.unifiedDiff)).toMatch(/@@ -7,7 \+7,7 @@/);
  });

  it('read (readApproval), delete, move, copy, list payloads', async () => {
    const dir = tempDir({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', readApproval: true }));
    expect(await payloadOf(toolset, 'read_file', { path: '/a.txt' })).toMatchObject({
      type: 'read',
      fileLines: 1,
      fileBytes: 2,
      fileExists: true,
    });
    expect(await payloadOf(toolset, 'delete_file', { path: '/a.txt' })).toMatchObject({
      type: 'delete',
      preview: 'A\n',
    });
    expect(
      await payloadOf(toolset, 'move_file', { source: '/a.txt', destination: '/b.txt', overwrite: true }),
    ).toMatchObject({
      type: 'move',
      source: '/a.txt',
      destination: '/b.txt',
      destinationExists: true,
    });
    expect(await payloadOf(toolset, 'copy_file', { source: '/a.txt', destination: '/c.txt' })).toMatchObject({
      type: 'copy',
      destinationExists: false,
    });
    expect(await payloadOf(toolset, 'list_files', { path: '/' })).toMatchObject({
      type: 'list',
      pattern: '**/*',
    });
  });

  it('blocked for policy, pre_approved by mount flags or config, blocked-with-error for doomed calls', async () => {
    const dir = tempDir({ 'a.txt': 'A' });
    const quiet = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
    expect(await quiet.needsApproval('write_file', { path: '/a.txt', content: 'x' })).toEqual({
      status: 'pre_approved',
    });
    const ro = new FileSystemToolset(Sandbox.fromDirectory(dir));
    const blocked = await ro.needsApproval('write_file', { path: '/a.txt', content: 'x' });
    expect(blocked).toMatchObject({ status: 'blocked' });
    expect(blocked.status === 'blocked' && blocked.error).toBeFalsy();
    const rw = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    expect(
      await rw.needsApproval(
        'write_file',
        { path: '/a.txt', content: 'x' },
        {},
        { write_file: { preApproved: true } },
      ),
    ).toEqual({
      status: 'pre_approved',
    });
    const doomed = await rw.needsApproval('edit_file', {
      path: '/a.txt',
      old_string: 'zzz',
      new_string: 'y',
    });
    expect(doomed).toMatchObject({ status: 'blocked', error: { code: 'edit_not_found' } });
  });

  it('bounds the overwrite diff of two unrelated 20,000-line files', async () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `alpha ${i} ${(i * 7919) % 1000}`).join('\n');
    const b = Array.from({ length: 20_000 }, (_, i) => `beta ${i * 3} ${(i * 104729) % 997}`).join('\n');
    const { toolset } = project({ 'big.txt': a });
    const started = performance.now();
    const p = await payloadOf(toolset, 'write_file', { path: '/big.txt', content: b });
    const ms = performance.now() - started;
    console.log(
      `payload diff, unrelated 20,000-line pair: ${ms.toFixed(0)} ms (coarse=${String(p.diffCoarse)})`,
    );
    expect(p.added).toBe(20_000);
    expect(p.removed).toBe(20_000);
  });
});

describe('state-bound execution and undo', () => {
  it('refuses with stale_approval when the file changed after approval', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const p = await payloadOf(toolset, 'edit_file', { path: '/a.txt', old_string: 'one', new_string: 'two' });
    fs.writeFileSync(path.join(dir, 'a.txt'), 'one\nchanged by someone\n');
    const e = err(
      await toolset.callTool(
        'edit_file',
        { path: '/a.txt', old_string: 'one', new_string: 'two' },
        { approvedBaseSha256: p.baseSha256 as string },
      ),
    );
    expect(e.code).toBe('stale_approval');
    expect(read(dir, 'a.txt')).toBe('one\nchanged by someone\n');
    const created = await payloadOf(toolset, 'write_file', { path: '/n.txt', content: 'x' });
    fs.writeFileSync(path.join(dir, 'n.txt'), 'appeared');
    const e2 = err(
      await toolset.callTool(
        'write_file',
        { path: '/n.txt', content: 'x' },
        { approvedBaseSha256: created.baseSha256 as null },
      ),
    );
    expect(e2.code).toBe('stale_approval');
  });

  it('records history and undoes the last change only while the file still has its after-state', async () => {
    const { dir, toolset } = project({ 'a.txt': 'v1\n' });
    ok(await toolset.callTool('write_file', { path: '/a.txt', content: 'v2\n' }));
    ok(await toolset.callTool('write_file', { path: '/new.txt', content: 'n\n' }));
    expect(toolset.history().map((h) => [h.toolName, h.path, h.beforeSha256 === null])).toEqual([
      ['write_file', '/a.txt', false],
      ['write_file', '/new.txt', true],
    ]);
    ok(await toolset.undo());
    expect(fs.existsSync(path.join(dir, 'new.txt'))).toBe(false);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'v3 by hand\n');
    const refused = err(await toolset.undo());
    expect(refused.code).toBe('state_mismatch');
    expect(read(dir, 'a.txt')).toBe('v3 by hand\n');
  });

  it('undoes a delete and a move', async () => {
    const { dir, toolset } = project({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
    ok(await toolset.callTool('delete_file', { path: '/a.txt' }));
    ok(await toolset.undo());
    expect(read(dir, 'a.txt')).toBe('A\n');
    ok(await toolset.callTool('move_file', { source: '/b.txt', destination: '/c/b.txt' }));
    ok(await toolset.undo());
    expect(read(dir, 'b.txt')).toBe('B\n');
    expect(fs.existsSync(path.join(dir, 'c/b.txt'))).toBe(false);
  });
});

describe('edit payload context lines', () => {
  it('are the three lines before and after the match as the model sees them (LF, no BOM), on any file', async () => {
    const fc = (await import('fast-check')).default;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[a-z ]{0,6}$/), { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        async (lines, pick, eol, bom, finalNewline) => {
          const at = pick % lines.length;
          const target = `TARGET${at}`;
          const all = lines.map((l, i) => (i === at ? target : l));
          const text = (bom ? '\uFEFF' : '') + all.join(eol) + (finalNewline ? eol : '');
          const { toolset } = project({ 'f.txt': text });
          const p = await payloadOf(toolset, 'edit_file', {
            path: '/f.txt',
            old_string: target,
            new_string: 'changed',
          });
          // What the model sees: LF lines of the file without its BOM, split on newlines.
          const seen = (finalNewline ? `${all.join('\n')}\n` : all.join('\n')).split('\n');
          expect(p.contextBefore).toBe(seen.slice(Math.max(0, at - 3), at).join('\n'));
          expect(p.contextAfter).toBe(seen.slice(at + 1, at + 4).join('\n'));
        },
      ),
      { numRuns: 200 },
    );
  });
});
