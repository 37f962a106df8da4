import { convertToModelMessages, readUIMessageStream, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../../adapters/ai-sdk.js';
import {
  approvalPayloadsOf,
  type SandboxUIMessage,
  sandboxApprovalResponse,
  withApprovalPayloads,
} from '../../adapters/ai-sdk-ui.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { DeferredApprovals } from '../../src/approval/deferred/deferred-approvals.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { project } from '../tools/fixture.js';

const EDIT = { path: '/a.js', old_string: 'const b = 1;', new_string: 'const b = 2;' };

async function firstTurn() {
  const p = project({ 'a.js': 'const a = 0;\nconst b = 1;\n' });
  const m = scriptedModel([{ calls: [{ id: 'call-1', name: 'edit_file', input: EDIT }] }, { text: 'ok' }]);
  const deferred = new DeferredApprovals();
  const tools = () =>
    aiSdkTools(new FileSystemToolset(p.sandbox), { approval: { mode: 'native', deferred } });
  const r = streamText({ model: m.model as never, tools: tools(), prompt: 'edit', stopWhen: stepCountIs(3) });
  return { p, m, deferred, tools, stream: withApprovalPayloads(r.toUIMessageStream(), deferred) };
}

async function lastMessage(stream: ReadableStream<unknown>): Promise<SandboxUIMessage> {
  let last: SandboxUIMessage | undefined;
  for await (const msg of readUIMessageStream<SandboxUIMessage>({ stream: stream as never })) last = msg;
  return last!;
}

describe('approval payloads in the UI message stream', () => {
  it('adds a typed data-sandbox-approval part after each tool-approval-request', async () => {
    const { stream } = await firstTurn();
    const chunks: Array<{ type: string }> = [];
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read())
      chunks.push(r.value as { type: string });
    const types = chunks.map((c) => c.type);
    const at = types.indexOf('tool-approval-request');
    expect(at).toBeGreaterThan(-1);
    expect(types[at + 1]).toBe('data-sandbox-approval');
    const data = (chunks[at + 1] as unknown as { data: Record<string, unknown> }).data;
    expect(data).toMatchObject({
      toolCallId: 'call-1',
      toolName: 'edit_file',
      approvalId: (chunks[at] as unknown as { approvalId: string }).approvalId,
      payload: { type: 'edit', path: '/a.js', matchLine: 2 },
    });
    expect((data.payload as { unifiedDiff: string }).unifiedDiff).toContain('+const b = 2;');
  });

  it('the part lands in the UIMessage next to the tool part; a denial settles the call for good', async () => {
    const t = await firstTurn();
    const message = await lastMessage(t.stream);
    const toolPart = message.parts.find((p) => p.type === 'tool-edit_file') as {
      toolCallId: string;
      state: string;
      approval: { id: string };
    };
    expect(toolPart.state).toBe('approval-requested');
    const payloads = approvalPayloadsOf(message);
    expect(payloads.get(toolPart.toolCallId)?.approvalId).toBe(toolPart.approval.id);
    expect(await t.deferred.shown('call-1')).toBeDefined();

    // The browser denies; the next request streams the denial.
    Object.assign(toolPart, {
      state: 'approval-responded',
      approval: { id: toolPart.approval.id, approved: false },
    });
    const r2 = streamText({
      model: t.m.model as never,
      tools: t.tools(),
      messages: await convertToModelMessages([
        { id: 'u', role: 'user', parts: [{ type: 'text', text: 'edit' }] },
        message,
      ]),
      stopWhen: stepCountIs(3),
    });
    const response = sandboxApprovalResponse(r2, { deferred: t.deferred, originalMessages: [message] });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    await response.text();
    expect(await t.deferred.shown('call-1')).toBeUndefined();
    // Settled: the browser cannot flip the denial into an approval later.
    expect(await t.deferred.claim('call-1')).toMatchObject({
      status: 'refused',
      error: { code: 'approval_blocked' },
    });
  });

  it('a denial in the incoming UI history is settled before the stream passes anything', async () => {
    const t = await firstTurn();
    const message = await lastMessage(t.stream);
    const toolPart = message.parts.find((p) => p.type === 'tool-edit_file') as { approval: { id: string } };
    Object.assign(toolPart, {
      state: 'approval-responded',
      approval: { id: toolPart.approval.id, approved: false },
    });
    // Even a stream that carries no tool-output-denied chunk (e.g. the client went away).
    const empty = new ReadableStream<never>({ start: (c) => c.close() });
    await new Response(withApprovalPayloads(empty, t.deferred, [message])).text();
    expect(await t.deferred.claim('call-1')).toMatchObject({
      status: 'refused',
      error: { code: 'approval_blocked' },
    });
  });
});
