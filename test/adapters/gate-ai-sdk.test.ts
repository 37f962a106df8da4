import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkTools, aiSdkToolset, answerApprovals, gateAiSdkTools } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { ApprovalMemory } from '../../src/approval/approval-memory.js';
import type { AuditEvent } from '../../src/approval/audit-events.js';
import { combineToolsets } from '../../src/approval/combine-toolsets.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { read } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

/** A user's own tool: records what ran, so a test can tell a denied call never ran. */
function runCommandTool(ran: string[]) {
  return tool({
    description: 'Run a command',
    inputSchema: z.object({ command: z.string(), args: z.array(z.string()).default([]) }),
    execute: async ({ command, args }, { toolCallId }) => {
      ran.push(`${toolCallId}:${command} ${args.join(' ')}`);
      return { exitCode: 0, stdout: `ran ${command}` };
    },
  });
}

describe('gateAiSdkTools (blocking mode)', () => {
  it('asks with a generic payload showing the arguments; approved runs, denied does not', async () => {
    const ran: string[] = [];
    const asked: ApprovalRequest[] = [];
    const { model, seenToolResults } = scriptedModel([
      {
        calls: [
          { id: 'c1', name: 'run_command', input: { command: 'node', args: ['--version'] } },
          { id: 'c2', name: 'run_command', input: { command: 'rm', args: ['-rf', '/'] } },
        ],
      },
      { text: 'done' },
    ]);
    const events: AuditEvent[] = [];
    const tools = gateAiSdkTools(
      { run_command: runCommandTool(ran) },
      {
        approval: {
          mode: 'blocking',
          onEvent: (e) => events.push(e),
          approve: (r) => {
            asked.push(r);
            const { command } = r.args as { command: string };
            return command === 'node' ? { approved: true } : { approved: false, note: 'never rm' };
          },
        },
      },
    );
    const result = await generateText({
      model: model as never,
      tools,
      prompt: 'x',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('done');
    expect(ran).toEqual(['c1:node --version']);
    expect(asked.map((r) => r.payload)).toEqual([
      expect.objectContaining({
        type: 'generic',
        toolName: 'run_command',
        args: { command: 'node', args: ['--version'] },
      }),
      expect.objectContaining({
        type: 'generic',
        toolName: 'run_command',
        args: { command: 'rm', args: ['-rf', '/'] },
      }),
    ]);
    expect(asked[0]?.description).toContain('command="node"');
    expect(seenToolResults()).toContain('ran node');
    expect(seenToolResults()).toContain('error approval_denied');
    expect(seenToolResults()).toContain('never rm');
    const decided = events.filter((e) => e.type === 'approval_decided').map((e) => e.decision);
    expect(decided.sort()).toEqual(['approved', 'denied']);
  });

  it("uses the tool's describeApproval, remembers 'every call of this tool', and reports a throwing tool as tool_failed", async () => {
    const calls: string[] = [];
    const flaky = Object.assign(
      tool({
        description: 'Deploy',
        inputSchema: z.object({ target: z.string() }),
        execute: async ({ target }) => {
          calls.push(target);
          if (target === 'broken') throw new Error('no route to host');
          return `deployed ${target}`;
        },
      }),
      {
        describeApproval: (a: { target: string }) => ({
          description: `Deploy to ${a.target}`,
          path: `/deploy/${a.target}`,
        }),
      },
    );
    const asked: string[] = [];
    const { model, seenToolResults } = scriptedModel([
      { calls: [{ id: 'a', name: 'deploy', input: { target: 'staging' } }] },
      { calls: [{ id: 'b', name: 'deploy', input: { target: 'broken' } }] },
      { text: 'ok' },
    ]);
    const tools = gateAiSdkTools(
      { deploy: flaky },
      {
        approval: {
          mode: 'blocking',
          approve: (r) => {
            asked.push(`${r.payload.description} @ ${r.payload.path}`);
            return { approved: true, remember: { scope: 'tool' } };
          },
        },
      },
    );
    await generateText({ model: model as never, tools, prompt: 'x', stopWhen: stepCountIs(4) });
    expect(asked).toEqual(['Deploy to staging @ /deploy/staging']);
    expect(calls).toEqual(['staging', 'broken']);
    expect(seenToolResults()).toContain('error tool_failed');
    expect(seenToolResults()).toContain('no route to host');
  });
});

describe('aiSdkTools over the file tools and your own tools (native mode)', () => {
  it('one answerApprovals round shows both typed and generic payloads; only approved calls run', async () => {
    const ran: string[] = [];
    const { dir, toolset: files } = project({ 'a.txt': 'one\n' });
    const toolset = combineToolsets(files, aiSdkToolset({ run_command: runCommandTool(ran) }));
    const tools = aiSdkTools(toolset, { approval: { mode: 'native' } });
    const { model } = scriptedModel([
      {
        calls: [
          { id: 'e1', name: 'edit_file', input: { path: '/a.txt', old_string: 'one', new_string: 'ONE' } },
          { id: 'r1', name: 'run_command', input: { command: 'ls' } },
          { id: 'r2', name: 'run_command', input: { command: 'curl', args: ['evil.example'] } },
        ],
      },
      { text: 'finished' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const r1 = await generateText({ model: model as never, tools, messages, stopWhen: stepCountIs(3) });
    messages.push(...r1.response.messages);
    expect(ran).toEqual([]);
    const shown: string[] = [];
    const memory = new ApprovalMemory();
    messages.push(
      await answerApprovals(r1, {
        toolset,
        memory,
        approve: (r) => {
          shown.push(`${r.payload.type}:${r.toolName}`);
          return { approved: (r.args as { command?: string }).command !== 'curl' };
        },
      }),
    );
    const r2 = await generateText({ model: model as never, tools, messages, stopWhen: stepCountIs(3) });
    expect(r2.text).toBe('finished');
    expect(shown.sort()).toEqual(['edit:edit_file', 'generic:run_command', 'generic:run_command']);
    expect(ran).toEqual(['r1:ls ']);
    expect(read(dir, 'a.txt')).toBe('ONE\n');
  });

  it('refuses to run a gated call whose arguments changed after approval (stale_approval)', async () => {
    const ran: string[] = [];
    const toolset = aiSdkToolset({ run_command: runCommandTool(ran) });
    const tools = aiSdkTools(toolset, { approval: { mode: 'native' } });
    const { model, seenToolResults } = scriptedModel([
      { calls: [{ id: 'r1', name: 'run_command', input: { command: 'ls', args: [] } }] },
      { text: 'finished' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const r1 = await generateText({ model: model as never, tools, messages, stopWhen: stepCountIs(3) });
    messages.push(...r1.response.messages);
    messages.push(await answerApprovals(r1, { toolset, approve: () => ({ approved: true }) }));
    // Someone edits the stored history: the call now asks for another command.
    const json = JSON.stringify(messages).replace('"command":"ls"', '"command":"rm"');
    await generateText({
      model: model as never,
      tools,
      messages: JSON.parse(json),
      stopWhen: stepCountIs(3),
    });
    expect(ran).toEqual([]);
    expect(seenToolResults()).toContain('stale_approval');
  });
});
