import fs from 'node:fs';
import path from 'node:path';
import { Agent, RunState, run, setTracingDisabled, tool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerInterruptions, openAIAgentsTools, runWithApprovals } from '../../adapters/openai-agents.js';
import { ApprovalAborted } from '../../src/approval/errors.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { read } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

setTracingDisabled(true);
const edit = { path: '/a.txt', old_string: 'one', new_string: 'ONE' };
const seen = (model: ScriptedModel) => JSON.stringify(model.calls.map((c) => c.request.input));

describe('openAIAgentsTools (blocking mode)', () => {
  it('asks inside the tool call; the edit is applied and the model sees the result', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const model = new ScriptedModel([
      [functionCall('edit_file', edit, { callId: 'c1' })],
      [assistantMessage('done')],
    ]);
    const asked: string[] = [];
    const tools = openAIAgentsTools(toolset, {
      approval: {
        mode: 'blocking',
        approve: (r) => {
          asked.push(r.payload.type);
          return { approved: true };
        },
      },
    });
    const result = await run(new Agent({ name: 'editor', model, tools }), 'edit');
    expect(result.finalOutput).toBe('done');
    expect(asked).toEqual(['edit']);
    expect(read(dir, 'a.txt')).toBe('ONE\n');
    expect(seen(model)).toContain('replacements_made');
  });

  it("returns a denial's note and errors with their code to the model", async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const model = new ScriptedModel([
      [
        functionCall('edit_file', edit, { callId: 'c1' }),
        functionCall('read_file', { path: '/missing.txt' }, { callId: 'c2' }),
      ],
      [assistantMessage('ok')],
    ]);
    const tools = openAIAgentsTools(toolset, {
      approval: { mode: 'blocking', approve: () => ({ approved: false, note: 'leave it' }) },
    });
    await run(new Agent({ name: 'editor', model, tools }), 'edit');
    expect(read(dir, 'a.txt')).toBe('one\n');
    expect(seen(model)).toContain('error approval_denied');
    expect(seen(model)).toContain('leave it');
    expect(seen(model)).toContain('error not_found');
  });
});

describe('openAIAgentsTools: parallel calls', () => {
  it('applies two parallel edits of one file in one step (blocking mode, both approved)', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one two\n' });
    const model = new ScriptedModel([
      [
        functionCall('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' }, { callId: 'p1' }),
        functionCall('edit_file', { path: '/a.txt', old_string: 'two', new_string: 'TWO' }, { callId: 'p2' }),
      ],
      [assistantMessage('both')],
    ]);
    const agent = new Agent({
      name: 'editor',
      model,
      tools: openAIAgentsTools(toolset, {
        approval: { mode: 'blocking', approve: () => ({ approved: true }) },
      }),
    });
    const result = await run(agent, 'edit');
    expect(result.finalOutput).toBe('both');
    expect(read(dir, 'a.txt')).toBe('ONE TWO\n');
  });
});

describe('quitting at the prompt', () => {
  it('rejects runWithApprovals with ApprovalAborted (blocking mode), file untouched', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const model = new ScriptedModel([
      [functionCall('edit_file', edit, { callId: 'q1' })],
      [assistantMessage('no')],
    ]);
    const quit = () => {
      throw new ApprovalAborted();
    };
    const agent = new Agent({
      name: 'editor',
      model,
      tools: openAIAgentsTools(toolset, { approval: { mode: 'blocking', approve: quit } }),
    });
    await expect(runWithApprovals(agent, 'edit', { approve: quit })).rejects.toBeInstanceOf(ApprovalAborted);
    expect(read(dir, 'a.txt')).toBe('one\n');
  });
});

describe('openAIAgentsTools (native mode) + runWithApprovals', () => {
  it.each([true, false])('answers interruptions and resumes: approved=%s', async (approved) => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const model = new ScriptedModel([
      [functionCall('edit_file', edit, { callId: 'c1' })],
      [assistantMessage('finished')],
    ]);
    const agent = new Agent({
      name: 'editor',
      model,
      tools: openAIAgentsTools(toolset, { approval: { mode: 'native' } }),
    });
    const result = await runWithApprovals(agent, 'edit', {
      toolset,
      approve: () => (approved ? { approved: true } : { approved: false, note: 'not today' }),
    });
    expect(result.finalOutput).toBe('finished');
    expect(read(dir, 'a.txt')).toBe(approved ? 'ONE\n' : 'one\n');
    if (!approved) expect(seen(model)).toContain('not today');
  });

  it('serialises a RunState with a pending approval and resumes it', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const model = new ScriptedModel([
      [functionCall('edit_file', edit, { callId: 'c1' })],
      [assistantMessage('resumed')],
    ]);
    const agent = new Agent({
      name: 'editor',
      model,
      tools: openAIAgentsTools(toolset, { approval: { mode: 'native' } }),
    });
    const first = await run(agent, 'edit');
    expect(first.interruptions).toHaveLength(1);
    const saved = first.state.toString();
    const restored = await RunState.fromString(agent, saved);
    await answerInterruptions(restored as never, { toolset, approve: () => ({ approved: true }) });
    const second = await run(agent, restored);
    expect(second.finalOutput).toBe('resumed');
    expect(read(dir, 'a.txt')).toBe('ONE\n');
  });

  it('refuses with stale_approval when the file changes between approval and execution', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const model = new ScriptedModel([
      [functionCall('edit_file', edit, { callId: 'c1' })],
      [assistantMessage('ok')],
    ]);
    const agent = new Agent({
      name: 'editor',
      model,
      tools: openAIAgentsTools(toolset, { approval: { mode: 'native' } }),
    });
    const first = await run(agent, 'edit');
    await answerInterruptions(first.state as never, { toolset, approve: () => ({ approved: true }) });
    fs.writeFileSync(path.join(dir, 'a.txt'), 'one\nchanged meanwhile\n');
    await run(agent, first.state);
    expect(read(dir, 'a.txt')).toBe('one\nchanged meanwhile\n');
    expect(seen(model)).toContain('stale_approval');
  });

  it('finds the toolset itself, remembers a file-scoped approval, and applies what the user edited', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one two\n' });
    const model = new ScriptedModel([
      [functionCall('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' }, { callId: 'c1' })],
      [functionCall('edit_file', { path: '/a.txt', old_string: 'two', new_string: 'TWO' }, { callId: 'c2' })],
      [assistantMessage('done')],
    ]);
    const agent = new Agent({
      name: 'editor',
      model,
      tools: openAIAgentsTools(toolset, { approval: { mode: 'native' } }),
    });
    const asked: string[] = [];
    const result = await runWithApprovals(agent, 'edit', {
      approve: (r) => {
        asked.push(String(r.toolCallId));
        return {
          approved: true,
          remember: { scope: 'file' },
          overrideArgs: { ...(r.args as object), new_string: 'UNO' },
        };
      },
    });
    expect(result.finalOutput).toBe('done');
    expect(asked).toEqual(['c1']);
    expect(read(dir, 'a.txt')).toBe('UNO TWO\n');
    expect(seen(model)).toContain('user_modified');
  });

  it("shows another tool's approval as a generic payload", async () => {
    const { toolset } = project({ 'a.txt': 'one\n' });
    const deploy = tool({
      name: 'deploy',
      description: 'Deploys.',
      parameters: z.object({ target: z.string() }),
      needsApproval: true,
      execute: async ({ target }) => `deployed ${target}`,
    });
    const model = new ScriptedModel([
      [functionCall('deploy', { target: 'prod' }, { callId: 'd1' })],
      [assistantMessage('ok')],
    ]);
    const agent = new Agent({
      name: 'ops',
      model,
      tools: [...openAIAgentsTools(toolset, { approval: { mode: 'native' } }), deploy],
    });
    const shown: ApprovalRequest[] = [];
    await runWithApprovals(agent, 'deploy', {
      approve: (r) => {
        shown.push(r);
        return { approved: false, note: 'not on a Friday' };
      },
    });
    expect(shown[0]!.payload).toMatchObject({
      type: 'generic',
      toolName: 'deploy',
      args: { target: 'prod' },
    });
    expect(seen(model)).toContain('not on a Friday');
    expect(seen(model)).not.toContain('deployed prod');
  });
});
