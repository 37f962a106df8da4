import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalMemory } from '../../src/approval/approval-memory.js';
import { ApprovalToolset, type InnerToolset } from '../../src/approval/approval-toolset.js';
import type { AuditEvent } from '../../src/approval/audit-events.js';
import { needsApprovalFromConfig } from '../../src/approval/config.js';
import { ApprovalAborted } from '../../src/approval/errors.js';
import { approveAll, denyAll, strict, withMemory } from '../../src/approval/policies.js';
import {
  type ApprovalCallback,
  type ApprovalRequest,
  ApprovalResult,
} from '../../src/contract/approval-types.js';
import type { ToolCallContext } from '../../src/contract/tool-call-context.js';
import { read } from '../helpers/temp-project.js';
import { err, ok, project } from '../tools/fixture.js';

/** A toolset without needsApproval: only the config decides (the original's config-based mode). */
function plainToolset() {
  const calls: Array<{ name: string; args: unknown; ctx?: ToolCallContext }> = [];
  const inner: InnerToolset = {
    async callTool(name, args, ctx) {
      calls.push({ name, args, ...(ctx ? { ctx } : {}) });
      return { ok: true, data: { ran: name } };
    },
  };
  return { inner, calls };
}

describe('ApprovalToolset: config-based (inner has no needsApproval)', () => {
  it('is secure by default: every tool needs approval unless preApproved', async () => {
    const { inner, calls } = plainToolset();
    const seen: ApprovalRequest[] = [];
    const gated = new ApprovalToolset(inner, {
      approve: (r) => {
        seen.push(r);
        return { approved: true };
      },
      config: { safe_tool: { preApproved: true } },
    });
    expect(ok(await gated.callTool('safe_tool', { x: 1 }))).toEqual({ ran: 'safe_tool' });
    expect(seen).toHaveLength(0);
    await gated.callTool('risky', { path: '/a', n: 2 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.description).toBe('risky(path="/a", n=2)');
    expect(seen[0]!.payload).toMatchObject({ type: 'generic', toolName: 'risky', path: '/a' });
    expect(calls.map((c) => c.name)).toEqual(['safe_tool', 'risky']);
  });

  it('needsApprovalFromConfig mirrors the original', () => {
    expect(needsApprovalFromConfig('t', { t: { preApproved: true } })).toEqual({ status: 'pre_approved' });
    expect(needsApprovalFromConfig('t', {}).status).toBe('needs_approval');
    expect(needsApprovalFromConfig('t', { t: { preApproved: false } }).status).toBe('needs_approval');
  });

  it('accepts async callbacks and returns the denial note to the model', async () => {
    const { inner, calls } = plainToolset();
    const gated = new ApprovalToolset(inner, {
      approve: async () => ({ approved: false, note: 'use the staging config instead' }),
    });
    const e = err(await gated.callTool('deploy', {}));
    expect(e.code).toBe('approval_denied');
    expect(e.message).toContain('use the staging config instead');
    expect(e.message).toMatch(/not retry the same call unchanged/);
    expect(calls).toHaveLength(0);
  });

  it('rejects a callback that returns a bare boolean (TypeError), as the original does', async () => {
    const { inner } = plainToolset();
    const gated = new ApprovalToolset(inner, { approve: (() => true) as never });
    await expect(gated.callTool('x', {})).rejects.toThrow(TypeError);
    const gated2 = new ApprovalToolset(inner, { approve: (() => undefined) as never });
    await expect(gated2.callTool('x', {})).rejects.toThrow(TypeError);
  });

  it('lets ApprovalAborted end the run', async () => {
    const { inner, calls } = plainToolset();
    const gated = new ApprovalToolset(inner, {
      approve: () => {
        throw new ApprovalAborted();
      },
    });
    await expect(gated.callTool('x', {})).rejects.toBeInstanceOf(ApprovalAborted);
    expect(calls).toHaveLength(0);
  });
});

describe('ApprovalToolset: protocol-based (inner decides)', () => {
  it('blocked → approval_blocked without asking; pre_approved runs; needs_approval asks', async () => {
    const { inner, calls } = plainToolset();
    inner.needsApproval = async (name) =>
      name === 'blocked_tool'
        ? ApprovalResult.blocked('outside the sandbox')
        : name === 'quiet'
          ? ApprovalResult.preApproved()
          : ApprovalResult.needsApproval({
              type: 'generic',
              description: 'do it',
              path: '/p',
              mount: '/',
              toolName: name,
              args: {},
            });
    let asked = 0;
    const gated = new ApprovalToolset(inner, {
      approve: () => {
        asked++;
        return { approved: true };
      },
    });
    const blocked = err(await gated.callTool('blocked_tool', {}));
    expect(blocked.code).toBe('approval_blocked');
    expect(blocked.message).toContain('outside the sandbox');
    ok(await gated.callTool('quiet', {}));
    ok(await gated.callTool('loud', {}));
    expect(asked).toBe(1);
    expect(calls.map((c) => c.name)).toEqual(['quiet', 'loud']);
  });

  it('queues concurrent requests: the callback never sees two at once, and order is kept', async () => {
    const { inner } = plainToolset();
    let active = 0;
    let maxActive = 0;
    const order: string[] = [];
    const gated = new ApprovalToolset(inner, {
      approve: async (r) => {
        active++;
        maxActive = Math.max(maxActive, active);
        order.push(String((r.args as { n: number }).n));
        await new Promise((res) => setTimeout(res, 5));
        active--;
        return { approved: true };
      },
    });
    await Promise.all([1, 2, 3, 4, 5].map((n) => gated.callTool('t', { n })));
    expect(maxActive).toBe(1);
    expect(order).toEqual(['1', '2', '3', '4', '5']);
  });

  it('emits events in order for each path, without file contents', async () => {
    const { toolset } = project({ 'a.txt': 'SECRET CONTENT\n' });
    const events: AuditEvent[] = [];
    const gated = new ApprovalToolset(toolset, {
      approve: () => ({ approved: false, note: 'no' }),
      onEvent: (e) => events.push(e),
    });
    await gated.callTool(
      'edit_file',
      { path: '/a.txt', old_string: 'SECRET', new_string: 'PUBLIC' },
      { toolCallId: 'c1' },
    );
    expect(events.map((e) => [e.type, e.decision ?? (e.ok === undefined ? '' : String(e.ok))])).toEqual([
      ['tool_call', ''],
      ['approval_requested', ''],
      ['approval_decided', 'denied'],
      ['tool_result', 'false'],
    ]);
    expect(events.every((e) => e.toolCallId === 'c1' && e.timestamp)).toBe(true);
    expect(JSON.stringify(events)).not.toContain('SECRET');
    events.length = 0;
    await gated.callTool('read_file', { path: '/a.txt' });
    expect(events.map((e) => e.decision ?? e.type)).toEqual(['tool_call', 'pre_approved', 'tool_result']);
  });
});

describe('ApprovalToolset over FileSystemToolset', () => {
  it('binds approval to the file state shown: a change during the prompt → stale_approval, file untouched', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        fs.writeFileSync(path.join(dir, 'a.txt'), 'one\nedited by the user meanwhile\n');
        return { approved: true };
      },
    });
    const e = err(
      await gated.callTool('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'two' }),
    );
    expect(e.code).toBe('stale_approval');
    expect(read(dir, 'a.txt')).toBe('one\nedited by the user meanwhile\n');
    const latest = e.details?.latest_file_state as { content: string } | undefined;
    expect(latest?.content).toContain('meanwhile');
  });

  it('returns a call that would fail with its own code, without asking', async () => {
    const { toolset } = project({ 'a.txt': 'one\n' });
    let asked = false;
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        asked = true;
        return { approved: true };
      },
    });
    expect(
      err(await gated.callTool('edit_file', { path: '/a.txt', old_string: 'zzz', new_string: 'y' })).code,
    ).toBe('edit_not_found');
    expect(err(await gated.callTool('write_file', { path: '/../x', content: 'y' })).code).toBe(
      'approval_blocked',
    );
    expect(asked).toBe(false);
  });

  it('applies what the user edited, and tells the model', async () => {
    const { dir, toolset } = project();
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => ({
        approved: true,
        overrideArgs: { ...(r.args as object), content: 'user version\n' },
      }),
    });
    const data = ok(await gated.callTool('write_file', { path: '/n.txt', content: 'model version\n' }));
    expect(read(dir, 'n.txt')).toBe('user version\n');
    expect(data).toMatchObject({ user_modified: true });
    expect(String(data.user_changes)).toContain('content');
  });

  it('strict and denyAll deny; approveAll approves; undo goes through', async () => {
    const { dir, toolset } = project({ 'a.txt': 'A\n' });
    expect(
      err(
        await new ApprovalToolset(toolset, { approve: strict() }).callTool('write_file', {
          path: '/a.txt',
          content: 'x',
        }),
      ).message,
    ).toMatch(/[Ss]trict mode/);
    expect(
      err(
        await new ApprovalToolset(toolset, { approve: denyAll('frozen') }).callTool('delete_file', {
          path: '/a.txt',
        }),
      ).message,
    ).toContain('frozen');
    const gated = new ApprovalToolset(toolset, { approve: approveAll() });
    ok(await gated.callTool('write_file', { path: '/a.txt', content: 'B\n' }));
    expect(gated.history()).toHaveLength(1);
    ok(await gated.undo());
    expect(read(dir, 'a.txt')).toBe('A\n');
  });
});

describe('remembered approvals', () => {
  async function setup() {
    const { dir, toolset } = project({ 'src/a.txt': 'a\n', 'src/b.txt': 'b\n', 'docs/c.txt': 'c\n' });
    const memory = new ApprovalMemory();
    const asked: string[] = [];
    let next: ApprovalCallback = () => ({ approved: true });
    const gated = new ApprovalToolset(toolset, {
      memory,
      approve: (r) => {
        asked.push(`${r.toolName} ${r.payload.path}`);
        return next(r);
      },
    });
    return {
      dir,
      gated,
      memory,
      asked,
      setNext: (f: typeof next) => {
        next = f;
      },
    };
  }
  const write = (p: string, content = 'x\n') => ({ path: p, content });

  it("'session' remembers exactly this call", async () => {
    const s = await setup();
    s.setNext(() => ({ approved: true, remember: 'session' }));
    await s.gated.callTool('write_file', write('/src/a.txt'));
    await s.gated.callTool('write_file', write('/src/a.txt'));
    await s.gated.callTool('write_file', write('/src/a.txt', 'other\n'));
    expect(s.asked).toEqual(['write_file /src/a.txt', 'write_file /src/a.txt']);
  });

  it('file scope covers other calls on the same file only', async () => {
    const s = await setup();
    s.setNext(() => ({ approved: true, remember: { scope: 'file' } }));
    await s.gated.callTool('write_file', write('/src/a.txt'));
    await s.gated.callTool('write_file', write('/src/a.txt', 'again\n'));
    await s.gated.callTool('write_file', write('/src/b.txt'));
    await s.gated.callTool('edit_file', { path: '/src/a.txt', old_string: 'again', new_string: 'z' });
    expect(s.asked).toEqual(['write_file /src/a.txt', 'write_file /src/b.txt', 'edit_file /src/a.txt']);
  });

  it('mount and tool scopes, listing and revoking', async () => {
    const dirA = project({ 'a.txt': 'a' });
    const memory = new ApprovalMemory();
    const asked: string[] = [];
    const gated = new ApprovalToolset(dirA.toolset, {
      memory,
      approve: (r) => {
        asked.push(r.payload.path);
        return { approved: true, remember: { scope: 'tool' } };
      },
    });
    await gated.callTool('write_file', write('/x.txt'));
    await gated.callTool('write_file', write('/y/z.txt'));
    expect(asked).toEqual(['/x.txt']);
    const entries = memory.list();
    expect(entries).toHaveLength(1);
    expect(entries[0]!.label).toBe('every write_file call');
    expect(memory.revoke(entries[0]!.id)).toBe(true);
    await gated.callTool('write_file', write('/w.txt'));
    expect(asked).toEqual(['/x.txt', '/w.txt']);
    memory.clear();
    expect(memory.list()).toEqual([]);
  });

  it('denials are remembered only when the decision says so; blocked always wins', async () => {
    const s = await setup();
    s.setNext(() => ({ approved: false, note: 'no' }));
    await s.gated.callTool('write_file', write('/src/a.txt'));
    await s.gated.callTool('write_file', write('/src/a.txt'));
    expect(s.asked).toHaveLength(2);
    s.setNext(() => ({ approved: true, remember: { scope: 'tool' } }));
    await s.gated.callTool('write_file', write('/src/b.txt'));
    expect(err(await s.gated.callTool('write_file', write('/../../etc/x'))).code).toBe('approval_blocked');
  });

  it('withMemory wraps any callback', async () => {
    const memory = new ApprovalMemory();
    let calls = 0;
    const cb = withMemory(() => {
      calls++;
      return { approved: true, remember: { scope: 'tool' } };
    }, memory);
    const req = {
      toolName: 't',
      args: {},
      description: 'd',
      payload: { type: 'generic', description: 'd', path: '', mount: '', toolName: 't', args: {} },
    } as const;
    await cb(req);
    await cb(req);
    expect(calls).toBe(1);
  });
});

describe('who refused', () => {
  it('tells the model a policy or a missing terminal refused, not the user', async () => {
    const { dir, toolset } = project({ 'a.txt': 'a\n' });
    const write = { path: '/a.txt', content: 'b\n' };
    const byPolicy = err(
      await new ApprovalToolset(toolset, { approve: denyAll('No writes today.') }).callTool(
        'write_file',
        write,
      ),
    );
    expect(byPolicy.code).toBe('approval_denied');
    expect(byPolicy.message).toContain('was refused without asking anyone: No writes today.');
    expect(byPolicy.message).not.toContain('The user');
    const byUser = err(
      await new ApprovalToolset(toolset, { approve: () => ({ approved: false, note: 'not now' }) }).callTool(
        'write_file',
        write,
      ),
    );
    expect(byUser.message).toContain('The user denied write_file on /a.txt and said: "not now"');
    expect(read(dir, 'a.txt')).toBe('a\n');
  });
});
