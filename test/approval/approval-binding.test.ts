import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBinding, type ExecutingCall, verifyBinding } from '../../src/approval/approval-binding.js';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { captureArguments } from '../../src/approval/call-arguments.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { read, tempDir } from '../helpers/temp-project.js';
import { err, ok, project } from '../tools/fixture.js';

const FILE = ['alpha one', 'bravo two', 'charlie three', 'delta four', 'echo five', ''].join('\n');

/** Reads with hashes (sets the toolset's anchor snapshot) and returns the "LINE#HASH" anchors. */
async function anchors(toolset: ReturnType<typeof project>['toolset'], p: string) {
  const content = String(ok(await toolset.callTool('read_file', { path: p, hashes: true })).content);
  return content.split('\n').map((l) => l.slice(0, l.indexOf('|')));
}

describe('the approval binding (blocking mode)', () => {
  it('case 5: a callback that mutates the request, or a getter, cannot change what runs', async () => {
    const { dir, toolset } = project({ 'a.txt': 'benign\n' });
    const gated = new ApprovalToolset(toolset, {
      approve: (r: ApprovalRequest) => {
        (r.args as { content: string }).content = 'EVIL\n';
        (r.payload as { baseSha256?: string | null }).baseSha256 = null;
        return { approved: true };
      },
    });
    ok(await gated.callTool('write_file', { path: '/a.txt', content: 'shown\n' }));
    expect(read(dir, 'a.txt')).toBe('shown\n');

    let reads = 0;
    const shifty = {
      path: '/a.txt',
      get content() {
        reads++;
        return reads === 1 ? 'first read\n' : 'EVIL\n';
      },
    };
    const shown: string[] = [];
    const gated2 = new ApprovalToolset(toolset, {
      approve: (r) => {
        shown.push((r.payload as { content: string }).content);
        return { approved: true };
      },
    });
    ok(await gated2.callTool('write_file', shifty));
    expect(reads).toBe(1);
    expect(shown).toEqual(['first read\n']);
    expect(read(dir, 'a.txt')).toBe('first read\n');
  });

  it('case 5: a callback that mutates the request cannot make the memory remember another call', async () => {
    const { dir, toolset } = project({ 'a.txt': 'a\n' });
    const asked: string[] = [];
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => {
        asked.push(String((r.args as { content: string }).content));
        (r.args as { content: string }).content = 'EVIL\n';
        return { approved: true, remember: 'session' };
      },
    });
    ok(await gated.callTool('write_file', { path: '/a.txt', content: 'good\n' }));
    ok(await gated.callTool('write_file', { path: '/a.txt', content: 'EVIL\n' }));
    expect(asked).toEqual(['good\n', 'EVIL\n']);
    ok(await gated.callTool('write_file', { path: '/a.txt', content: 'good\n' }));
    expect(asked).toHaveLength(2);
    expect(read(dir, 'a.txt')).toBe('good\n');
  });

  it('case 1: edit_lines refuses when another hashed read moved its anchors after approval', async () => {
    const { dir, toolset } = project({ 'f.txt': FILE });
    const a = await anchors(toolset, '/f.txt');
    // The file changes outside: the approval resolves the anchor through the earlier read.
    fs.writeFileSync(path.join(dir, 'f.txt'), `inserted\n${FILE}`);
    const gated = new ApprovalToolset(toolset, {
      approve: async () => {
        // A hashed read of the same file, spelled differently, straight on the toolset.
        await toolset.callTool('read_file', { path: 'f.txt', hashes: true });
        return { approved: true };
      },
    });
    const e = err(
      await gated.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: a[3], content: 'DELTA' }],
      }),
    );
    expect(e.code).toBe('stale_approval');
    expect(read(dir, 'f.txt')).toBe(`inserted\n${FILE}`);
  });

  it('case 1: a parallel hashed read spelled /./f.txt waits for the approved edit (one lock per real file)', async () => {
    const { dir, toolset } = project({ 'f.txt': FILE });
    const a = await anchors(toolset, '/f.txt');
    let release!: () => void;
    const waiting = new Promise<void>((r) => {
      release = r;
    });
    const diffs: string[] = [];
    const gated = new ApprovalToolset(toolset, {
      approve: async (r) => {
        diffs.push(String((r.payload as { unifiedDiff: string }).unifiedDiff));
        await waiting;
        return { approved: true };
      },
      config: { read_file: { preApproved: true } },
    });
    const order: string[] = [];
    const edit = gated
      .callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: a[3], content: 'DELTA' }],
      })
      .then((o) => order.push(`edit ${o.ok}`));
    await new Promise((r) => setTimeout(r, 20));
    const readCall = gated
      .callTool('read_file', { path: '/./f.txt', hashes: true })
      .then((o) => order.push(`read ${o.ok}`));
    await new Promise((r) => setTimeout(r, 20));
    release();
    await Promise.all([edit, readCall]);
    expect(order).toEqual(['edit true', 'read true']);
    expect(diffs[0]).toContain('+DELTA');
    expect(read(dir, 'f.txt')).toBe(FILE.replace('delta four', 'DELTA'));
  });

  it('case 5: remembered scopes are per sandbox: "/" approved in one sandbox is asked again in another', async () => {
    const one = project({ 'a.txt': 'a\n' });
    const two = project({ 'a.txt': 'a\n' });
    const asked: string[] = [];
    const approve = (r: ApprovalRequest) => {
      asked.push(r.sandboxId ?? '?');
      return { approved: true, remember: { scope: 'mount' as const } };
    };
    const g1 = new ApprovalToolset(one.toolset, { approve });
    const g2 = new ApprovalToolset(two.toolset, { approve, memory: g1.memory });
    ok(await g1.callTool('write_file', { path: '/a.txt', content: 'b\n' }));
    ok(await g1.callTool('write_file', { path: '/b.txt', content: 'c\n' }));
    ok(await g2.callTool('write_file', { path: '/a.txt', content: 'd\n' }));
    expect(asked).toEqual([one.sandbox.identity, two.sandbox.identity]);
    expect(one.sandbox.identity).not.toBe(two.sandbox.identity);
  });

  it('sandbox identity: equal for the same configuration, different for another directory or a derived sandbox', () => {
    const { dir, sandbox } = project({ 'a.txt': 'a\n' });
    expect(Sandbox.fromDirectory(dir, { mode: 'rw' }).identity).toBe(sandbox.identity);
    expect(Sandbox.fromDirectory(dir, { mode: 'ro' }).identity).not.toBe(sandbox.identity);
    expect(sandbox.derive({ inherit: true, readonly: true }).identity).not.toBe(sandbox.identity);
    expect(project().sandbox.identity).not.toBe(sandbox.identity);
  });

  it('case 5: write_file over limits.maxFileBytes → file_too_large, nothing written, nobody asked', async () => {
    const { dir, sandbox } = project({ 'a.txt': 'small\n' });
    const { FileSystemToolset } = await import('../../src/tools/filesystem-toolset.js');
    const toolset = new FileSystemToolset(sandbox, { limits: { maxFileBytes: 64 } });
    let asked = false;
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        asked = true;
        return { approved: true };
      },
    });
    const big = 'x'.repeat(65);
    expect(err(await gated.callTool('write_file', { path: '/a.txt', content: big })).code).toBe(
      'file_too_large',
    );
    expect(err(await toolset.callTool('write_file', { path: '/new.txt', content: big })).code).toBe(
      'file_too_large',
    );
    expect(asked).toBe(false);
    expect(read(dir, 'a.txt')).toBe('small\n');
    expect(fs.existsSync(path.join(dir, 'new.txt'))).toBe(false);
    // Exactly at the limit is fine.
    ok(await toolset.callTool('write_file', { path: '/a.txt', content: `${'y'.repeat(62)}z\n` }));
    // An edit whose result is too large is refused too, the file left as it was.
    const e = err(await gated.callTool('edit_file', { path: '/a.txt', old_string: 'z', new_string: 'zz' }));
    expect(e.code).toBe('file_too_large');
    const patch = `--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-${'y'.repeat(62)}z\n+${'y'.repeat(62)}zz\n`;
    expect(
      err(
        await gated.callTool('patch_file', {
          path: '/a.txt',
          unified_diff: patch,
          base_sha256: createHash('sha256').update(read(dir, 'a.txt')).digest('hex'),
        }),
      ).code,
    ).toBe('file_too_large');
    // Refused before anyone was asked, as write_file is.
    expect(asked).toBe(false);
    expect(read(dir, 'a.txt')).toBe(`${'y'.repeat(62)}z\n`);
  });

  it('case 5: copy and move into a mount with a smaller maxFileBytes → file_too_large before asking', async () => {
    const big = tempDir({ 'f.txt': 'x'.repeat(100) });
    const small = tempDir();
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: big, mountPoint: '/big', mode: 'rw' },
        { hostPath: small, mountPoint: '/small', mode: 'rw', maxFileBytes: 10 },
      ],
    });
    const { FileSystemToolset } = await import('../../src/tools/filesystem-toolset.js');
    const gated = new ApprovalToolset(new FileSystemToolset(sandbox), {
      approve: () => {
        throw new Error('must not be asked');
      },
    });
    for (const tool of ['copy_file', 'move_file']) {
      const e = err(await gated.callTool(tool, { source: '/big/f.txt', destination: '/small/f.txt' }));
      expect(e.code).toBe('file_too_large');
    }
    expect(fs.readdirSync(small)).toEqual([]);
    expect(read(big, 'f.txt')).toBe('x'.repeat(100));
  });
});

describe('ApprovalBinding record', () => {
  const payload: ApprovalPayload = {
    type: 'write',
    description: 'Overwrite /a.txt',
    path: '/a.txt',
    mount: '/',
    baseSha256: 'b'.repeat(64),
    content: 'x',
    contentLines: 1,
    contentBytes: 1,
    preview: 'x',
    previewTruncated: false,
    fileExists: true,
    existingLines: 1,
    existingBytes: 1,
  };
  const call = { toolName: 'write_file', toolCallId: 'c1', args: { path: '/a.txt', content: 'x' } };

  it('is plain JSON that verifies after a round trip (another process), with or without a secret', () => {
    for (const secret of [undefined, 'k3y']) {
      const options = secret ? { secret } : {};
      const binding = createBinding(
        {
          toolName: 'write_file',
          toolCallId: 'c1',
          requested: captureArguments(call.args),
          payload,
          approved: true,
        },
        options,
      );
      const stored = JSON.parse(JSON.stringify(binding));
      const checked = verifyBinding(stored, { ...call, args: { content: 'x', path: '/a.txt' } }, options);
      expect(checked.ok && checked.context).toEqual({ toolCallId: 'c1', approvedBaseSha256: 'b'.repeat(64) });
      // Altered in storage: refused.
      const forged = { ...stored, requestedArgs: '{"content":"EVIL","path":"/a.txt"}' };
      const refused = verifyBinding(forged, { ...call, args: { path: '/a.txt', content: 'EVIL' } }, options);
      expect(!refused.ok && refused.error.code).toBe('stale_approval');
    }
  });

  it('refuses other arguments, another call id, another tool; a denial stays a denial', () => {
    const binding = createBinding({
      toolName: 'write_file',
      toolCallId: 'c1',
      requested: captureArguments(call.args),
      payload,
      approved: false,
      note: 'no',
    });
    const code = (c: ExecutingCall) => {
      const r = verifyBinding(binding, c);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(code(call)).toBe('approval_denied');
    expect(code({ ...call, args: { path: '/a.txt', content: 'y' } })).toBe('stale_approval');
    expect(code({ ...call, toolCallId: 'c2' })).toBe('stale_approval');
    expect(code({ toolName: call.toolName, args: call.args })).toBe('stale_approval');
    expect(code({ ...call, toolName: 'edit_file' })).toBe('stale_approval');
    expect(code({ ...call, args: { path: '/a.txt', content: 'x', extra: 1 } as never })).toBe(
      'stale_approval',
    );
  });
});
