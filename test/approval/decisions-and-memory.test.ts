import { describe, expect, it } from 'vitest';
import { ApprovalMemory } from '../../src/approval/approval-memory.js';
import { ApprovalToolset, type InnerToolset } from '../../src/approval/approval-toolset.js';
import { ApprovalAborted } from '../../src/approval/errors.js';
import { withMemory } from '../../src/approval/policies.js';
import {
  type ApprovalCallback,
  type ApprovalRequest,
  ApprovalResult,
} from '../../src/contract/approval-types.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { read, tempDir } from '../helpers/temp-project.js';
import { err, ok, project } from '../tools/fixture.js';

const inner: InnerToolset = { callTool: async (name) => ({ ok: true, data: { ran: name } }) };

describe('approval types and errors', () => {
  it('ApprovalResult factories build the three statuses', () => {
    expect(ApprovalResult.blocked('read-only mount')).toEqual({
      status: 'blocked',
      reason: 'read-only mount',
    });
    expect(ApprovalResult.preApproved()).toEqual({ status: 'pre_approved' });
    const payload = {
      type: 'generic',
      description: 'd',
      path: '',
      mount: '',
      toolName: 't',
      args: {},
    } as const;
    expect(ApprovalResult.needsApproval(payload)).toEqual({ status: 'needs_approval', payload });
  });

  it('ApprovalAborted is an Error named for itself (denials and blocks are outcomes, never thrown)', () => {
    const aborted = new ApprovalAborted();
    expect(aborted).toBeInstanceOf(Error);
    expect(aborted.name).toBe('ApprovalAborted');
    expect(aborted.message).toContain('aborted');
  });

  it.each([
    [{ approved: true, remember: 'forever' }],
    [{ approved: true, remember: { scope: '*' } }],
    [{ approved: false, note: 42 }],
    [{ approved: true, overrideArgs: 'content' }],
    ['yes'],
    [1],
  ])('a callback returning a malformed decision %j is a TypeError, and nothing runs', async (bad) => {
    let ran = false;
    const gated = new ApprovalToolset(
      {
        callTool: async () => {
          ran = true;
          return { ok: true, data: {} };
        },
      },
      { approve: (() => bad) as never },
    );
    await expect(gated.callTool('t', {})).rejects.toThrow(TypeError);
    expect(ran).toBe(false);
  });

  it("accepts remember: 'none' and remembers nothing", async () => {
    let asked = 0;
    const gated = new ApprovalToolset(inner, {
      approve: () => {
        asked++;
        return { approved: true, remember: 'none' };
      },
    });
    ok(await gated.callTool('t', { a: 1 }));
    ok(await gated.callTool('t', { a: 1 }));
    expect(asked).toBe(2);
    expect(gated.memory.list()).toEqual([]);
  });
});

describe('remember scopes', () => {
  function twoMounts() {
    const src = tempDir({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const docs = tempDir({ 'c.txt': 'c\n' });
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: src, mountPoint: '/src', mode: 'rw' },
        { hostPath: docs, mountPoint: '/docs', mode: 'rw' },
      ],
    });
    const asked: string[] = [];
    let answer: ApprovalCallback = () => ({ approved: true, remember: { scope: 'mount' } });
    const gated = new ApprovalToolset(new FileSystemToolset(sandbox), {
      approve: (r) => {
        asked.push(`${r.toolName} ${r.payload.path}`);
        return answer(r);
      },
    });
    return {
      gated,
      asked,
      src,
      setAnswer: (f: ApprovalCallback) => {
        answer = f;
      },
    };
  }

  it('mount scope covers the same tool anywhere under that mount, nothing else', async () => {
    const t = twoMounts();
    await t.gated.callTool('write_file', { path: '/src/a.txt', content: '1\n' });
    await t.gated.callTool('write_file', { path: '/src/new/deep.txt', content: '2\n' }); // hit
    await t.gated.callTool('write_file', { path: '/docs/c.txt', content: '3\n' }); // other mount
    await t.gated.callTool('delete_file', { path: '/src/b.txt' }); // other tool
    expect(t.asked).toEqual(['write_file /src/a.txt', 'write_file /docs/c.txt', 'delete_file /src/b.txt']);
    expect(t.gated.memory.list()[0]!.label).toBe('write_file anywhere under /src');
  });

  it('a denial remembered on request refuses later calls with the user note, without asking', async () => {
    const t = twoMounts();
    t.setAnswer(() => ({ approved: false, note: 'leave /src alone', remember: { scope: 'file' } }));
    err(await t.gated.callTool('write_file', { path: '/src/a.txt', content: '1\n' }));
    const again = err(await t.gated.callTool('write_file', { path: '/src/a.txt', content: '2\n' }));
    expect(again.code).toBe('approval_denied');
    expect(again.message).toContain('leave /src alone');
    expect(t.asked).toHaveLength(1);
    expect(read(t.src, 'a.txt')).toBe('a\n');
    expect(t.gated.memory.list()[0]).toMatchObject({ approved: false, note: 'leave /src alone' });
  });

  it('withMemory remembers denials with their note, and validates what the callback returns', async () => {
    const memory = new ApprovalMemory();
    const req: ApprovalRequest = {
      toolName: 't',
      args: {},
      description: 'd',
      payload: { type: 'generic', description: 'd', path: '', mount: '', toolName: 't', args: {} },
    };
    const cb = withMemory(() => ({ approved: false, note: 'never', remember: { scope: 'tool' } }), memory);
    await cb(req);
    expect(await cb(req)).toEqual({ approved: false, note: expect.stringContaining('never') });
    await expect(withMemory((() => false) as never, new ApprovalMemory())(req)).rejects.toThrow(TypeError);
  });
});

describe('quitting the run', () => {
  it('aborts the requests already waiting for the prompt, without showing them; a new run asks again', async () => {
    const shown: number[] = [];
    const gated = new ApprovalToolset(inner, {
      approve: async (r) => {
        const n = (r.args as { n: number }).n;
        shown.push(n);
        await new Promise((res) => setTimeout(res, 5));
        if (n === 1) throw new ApprovalAborted();
        return { approved: true };
      },
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => gated.callTool('t', { n })));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ApprovalAborted);
    expect(shown).toEqual([1]);
    ok(await gated.callTool('t', { n: 4 }));
    expect(shown).toEqual([1, 4]);
  });
});

describe('edits made by the user', () => {
  it('tell the model exactly what the user changed, as a diff', async () => {
    const { dir, toolset } = project({ 'a.txt': 'alpha\nbeta\n' });
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => ({
        approved: true,
        overrideArgs: { ...(r.args as object), new_string: 'BETA (reviewed)' },
      }),
    });
    const data = ok(
      await gated.callTool('edit_file', { path: '/a.txt', old_string: 'beta', new_string: 'B' }),
    );
    expect(read(dir, 'a.txt')).toBe('alpha\nBETA (reviewed)\n');
    const changes = String(data.user_changes);
    expect(changes).toContain('new_string');
    expect(changes).toContain('-B');
    expect(changes).toContain('+BETA (reviewed)');
    expect(changes).toMatch(/Re-read the file/);
  });
});
