import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import type { AuditEvent } from '../../src/approval/audit-events.js';
import { ApprovalAborted } from '../../src/approval/errors.js';
import type { ApprovalCallback } from '../../src/contract/approval-types.js';
import { project } from '../tools/fixture.js';

function audited(approve: ApprovalCallback, files: Record<string, string> = { 'a.txt': 'SECRET\n' }) {
  const { toolset } = project(files);
  const events: AuditEvent[] = [];
  const gated = new ApprovalToolset(toolset, { approve, onEvent: (e) => events.push(e) });
  const steps = () => events.map((e) => `${e.type}${e.decision ? `:${e.decision}` : ''}`);
  return { gated, events, steps };
}

const write = { path: '/a.txt', content: 'ALSO SECRET\n' };

describe('audit events for each path', () => {
  it('approved (and remembered): the decided event names the payload, path and scope', async () => {
    const a = audited(() => ({ approved: true, remember: { scope: 'file' } }));
    await a.gated.callTool('write_file', write, { toolCallId: 'c1' });
    expect(a.steps()).toEqual([
      'tool_call',
      'approval_requested',
      'approval_decided:approved',
      'tool_result',
    ]);
    const decided = a.events[2]!;
    expect(decided).toMatchObject({
      toolName: 'write_file',
      toolCallId: 'c1',
      path: '/a.txt',
      payloadType: 'write',
      remember: 'file',
    });
    const result = a.events[3]!;
    expect(result).toMatchObject({ ok: true, path: '/a.txt' });
    expect(typeof result.durationMs).toBe('number');
    expect(a.events.every((e) => !Number.isNaN(Date.parse(e.timestamp)))).toBe(true);

    a.events.length = 0;
    await a.gated.callTool('write_file', { ...write, content: 'again\n' });
    expect(a.steps()).toEqual(['tool_call', 'approval_decided:remembered', 'tool_result']);
    expect(JSON.stringify(a.events)).not.toMatch(/SECRET|again/);
  });

  it('denied: the note is recorded; blocked: no request, error code in the result', async () => {
    const a = audited(() => ({ approved: false, note: 'use a branch' }));
    await a.gated.callTool('write_file', write);
    expect(a.events.find((e) => e.type === 'approval_decided')).toMatchObject({
      decision: 'denied',
      note: 'use a branch',
    });
    expect(a.events.at(-1)).toMatchObject({ type: 'tool_result', ok: false, code: 'approval_denied' });
    a.events.length = 0;
    await a.gated.callTool('write_file', { path: '/../outside.txt', content: 'x' });
    expect(a.steps()).toEqual(['tool_call', 'approval_decided:blocked', 'tool_result']);
    expect(a.events.at(-1)).toMatchObject({ ok: false, code: 'approval_blocked' });
  });

  it('aborted: the decision is recorded before the abort propagates, and no result follows', async () => {
    const a = audited(() => {
      throw new ApprovalAborted();
    });
    await expect(a.gated.callTool('write_file', write)).rejects.toBeInstanceOf(ApprovalAborted);
    expect(a.steps()).toEqual(['tool_call', 'approval_requested', 'approval_decided:aborted']);
  });

  it('undo is audited too (the journal entry it restores, never the content)', async () => {
    const a = audited(() => ({ approved: true }));
    await a.gated.callTool('write_file', write);
    a.events.length = 0;
    expect((await a.gated.undo()).ok).toBe(true);
    expect(a.events.map((e) => [e.type, e.toolName, e.path, e.ok])).toEqual([
      ['tool_call', 'undo', '/a.txt', undefined],
      ['tool_result', 'undo', '/a.txt', true],
    ]);
    expect(JSON.stringify(a.events)).not.toContain('SECRET');
  });
});
