import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, answerApprovals } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { ApprovalMemory } from '../../src/approval/approval-memory.js';
import type { AuditEvent } from '../../src/approval/audit-events.js';
import { ApprovalAborted } from '../../src/approval/errors.js';
import { approveAll } from '../../src/approval/policies.js';
import { read } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

const edit = { path: '/a.txt', old_string: 'one', new_string: 'ONE' };

describe('aiSdkTools (blocking mode)', () => {
  it('asks inside execute: approved edit is applied and the model sees the result', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\ntwo\n' });
    const asked: string[] = [];
    const { model, seenToolResults } = scriptedModel([
      { calls: [{ id: 'c1', name: 'edit_file', input: edit }] },
      { text: 'done' },
    ]);
    const tools = aiSdkTools(toolset, {
      approval: {
        mode: 'blocking',
        approve: (r) => {
          asked.push(`${r.payload.type} ${r.payload.path}`);
          return { approved: true };
        },
      },
    });
    const result = await generateText({
      model: model as never,
      tools,
      prompt: 'edit',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('done');
    expect(asked).toEqual(['edit /a.txt']);
    expect(read(dir, 'a.txt')).toBe('ONE\ntwo\n');
    expect(seenToolResults()).toContain('replacements_made');
  });

  it("sends a denial's note to the model, and errors with their code", async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const { model, seenToolResults } = scriptedModel([
      {
        calls: [
          { id: 'c1', name: 'edit_file', input: edit },
          { id: 'c2', name: 'read_file', input: { path: '/nope.txt' } },
        ],
      },
      { text: 'ok' },
    ]);
    const tools = aiSdkTools(toolset, {
      approval: { mode: 'blocking', approve: () => ({ approved: false, note: 'keep it lowercase' }) },
    });
    await generateText({ model: model as never, tools, prompt: 'edit', stopWhen: stepCountIs(3) });
    expect(read(dir, 'a.txt')).toBe('one\n');
    expect(seenToolResults()).toContain('error approval_denied');
    expect(seenToolResults()).toContain('keep it lowercase');
    expect(seenToolResults()).toContain('error not_found');
  });

  it('applies two parallel calls on one file in one step', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\ntwo\n' });
    const { model } = scriptedModel([
      {
        calls: [
          { id: 'c1', name: 'edit_file', input: edit },
          { id: 'c2', name: 'edit_file', input: { path: '/a.txt', old_string: 'two', new_string: 'TWO' } },
        ],
      },
      { text: 'done' },
    ]);
    await generateText({
      model: model as never,
      tools: aiSdkTools(toolset, { approval: { mode: 'blocking', approve: approveAll() } }),
      prompt: 'x',
      stopWhen: stepCountIs(3),
    });
    expect(read(dir, 'a.txt')).toBe('ONE\nTWO\n');
  });

  it('ends the run with ApprovalAborted when the user quits at the prompt', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\ntwo\n' });
    const { model, prompts } = scriptedModel([
      { calls: [{ id: 'c1', name: 'edit_file', input: edit }] },
      { text: 'carried on' },
    ]);
    const quit = new AbortController();
    const tools = aiSdkTools(toolset, {
      approval: {
        mode: 'blocking',
        approve: () => {
          throw new ApprovalAborted();
        },
      },
      abortController: quit,
    });
    await expect(
      generateText({
        model: model as never,
        tools,
        prompt: 'x',
        abortSignal: quit.signal,
        stopWhen: stepCountIs(3),
      }),
    ).rejects.toBeInstanceOf(ApprovalAborted);
    expect(prompts).toHaveLength(1);
    expect(read(dir, 'a.txt')).toBe('one\ntwo\n');
  });

  it('works with streamText', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const { model } = scriptedModel([
      { calls: [{ id: 'c1', name: 'edit_file', input: edit }] },
      { text: 'streamed' },
    ]);
    const result = streamText({
      model: model as never,
      tools: aiSdkTools(toolset, { approval: { mode: 'blocking', approve: approveAll() } }),
      prompt: 'x',
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe('streamed');
    expect(read(dir, 'a.txt')).toBe('ONE\n');
  });
});

describe('aiSdkTools (native mode) + answerApprovals', () => {
  async function firstCall(files: Record<string, string>) {
    const p = project(files);
    const scripted = scriptedModel([
      { calls: [{ id: 'c1', name: 'edit_file', input: edit }] },
      { text: 'finished' },
    ]);
    const tools = aiSdkTools(p.toolset, { approval: { mode: 'native' } });
    const messages: ModelMessage[] = [{ role: 'user', content: 'edit' }];
    const r1 = await generateText({
      model: scripted.model as never,
      tools,
      messages,
      stopWhen: stepCountIs(3),
    });
    messages.push(
      ...((r1 as { responseMessages?: ModelMessage[] }).responseMessages ?? r1.response.messages),
    );
    return { ...p, ...scripted, tools, messages, r1 };
  }

  it.each([true, false])('round trip: approved=%s', async (approved) => {
    const s = await firstCall({ 'a.txt': 'one\n' });
    expect(s.r1.content.some((p) => p.type === 'tool-approval-request')).toBe(true);
    expect(read(s.dir, 'a.txt')).toBe('one\n');
    const seen: string[] = [];
    s.messages.push(
      await answerApprovals(s.r1, {
        toolset: s.toolset,
        approve: (r) => {
          seen.push(`${r.payload.type}:${r.payload.path}`);
          return approved ? { approved: true } : { approved: false, note: 'not now' };
        },
      }),
    );
    const r2 = await generateText({
      model: s.model as never,
      tools: s.tools,
      messages: s.messages,
      stopWhen: stepCountIs(3),
    });
    expect(r2.text).toBe('finished');
    expect(seen).toEqual(['edit:/a.txt']);
    expect(read(s.dir, 'a.txt')).toBe(approved ? 'ONE\n' : 'one\n');
    if (!approved) expect(s.seenToolResults()).toContain('not now');
  });

  it('refuses with stale_approval when the file changed after approval', async () => {
    const s = await firstCall({ 'a.txt': 'one\n' });
    s.messages.push(
      await answerApprovals(s.messages, { toolset: s.toolset, approve: () => ({ approved: true }) }),
    );
    fs.writeFileSync(path.join(s.dir, 'a.txt'), 'one\nedited meanwhile\n');
    await generateText({
      model: s.model as never,
      tools: s.tools,
      messages: s.messages,
      stopWhen: stepCountIs(3),
    });
    expect(read(s.dir, 'a.txt')).toBe('one\nedited meanwhile\n');
    expect(s.seenToolResults()).toContain('stale_approval');
  });

  it("applies the user's edited arguments (e.g. from $EDITOR) and tells the model", async () => {
    const s = await firstCall({ 'a.txt': 'one\n' });
    s.messages.push(
      await answerApprovals(s.r1, {
        toolset: s.toolset,
        approve: (r) => ({ approved: true, overrideArgs: { ...(r.args as object), new_string: 'Uno' } }),
      }),
    );
    await generateText({
      model: s.model as never,
      tools: s.tools,
      messages: s.messages,
      stopWhen: stepCountIs(3),
    });
    expect(read(s.dir, 'a.txt')).toBe('Uno\n');
    expect(s.seenToolResults()).toContain('user_modified');
  });

  it('remembers an approval for the scope the user picked, per sandbox', async () => {
    const memory = new ApprovalMemory();
    const asked: string[] = [];
    const approve = (r: { toolCallId?: string }) => {
      asked.push(String(r.toolCallId));
      return { approved: true, remember: { scope: 'tool' as const } };
    };
    const first = await firstCall({ 'a.txt': 'one\n' });
    await answerApprovals(first.r1, { toolset: first.toolset, approve, memory });
    // The same memory, another sandbox (another directory): "every edit_file" there was never approved.
    const second = await firstCall({ 'a.txt': 'one\n' });
    const answer = await answerApprovals(second.r1, { toolset: second.toolset, approve, memory });
    expect(asked).toEqual(['c1', 'c1']);
    expect(JSON.stringify(answer)).toContain('"approved":true');
    expect(memory.list()).toHaveLength(2);
    // The same sandbox again: remembered, not asked.
    const again = scriptedModel([{ calls: [{ id: 'c2', name: 'edit_file', input: edit }] }, { text: 'x' }]);
    const r = await generateText({ model: again.model as never, tools: first.tools, prompt: 'again' });
    await answerApprovals(r, { toolset: first.toolset, approve, memory });
    expect(asked).toEqual(['c1', 'c1']);
  });

  it('audits native calls: requested, decided, call, result', async () => {
    const { toolset } = project({ 'a.txt': 'one\n' });
    const events: AuditEvent[] = [];
    const { model } = scriptedModel([
      { calls: [{ id: 'c1', name: 'edit_file', input: edit }] },
      { text: 'ok' },
    ]);
    const tools = aiSdkTools(toolset, { approval: { mode: 'native', onEvent: (e) => events.push(e) } });
    const messages: ModelMessage[] = [{ role: 'user', content: 'edit' }];
    const r1 = await generateText({ model: model as never, tools, messages, stopWhen: stepCountIs(3) });
    messages.push(...r1.response.messages, await answerApprovals(r1, { toolset, approve: approveAll() }));
    await generateText({ model: model as never, tools, messages, stopWhen: stepCountIs(3) });
    expect(events.map((e) => `${e.type}${e.decision ? `:${e.decision}` : ''}`)).toEqual([
      'approval_requested',
      'approval_decided:approved',
      'tool_call',
      'tool_result',
    ]);
    expect(events.every((e) => e.toolCallId === 'c1' && e.path === '/a.txt')).toBe(true);
    expect(JSON.stringify(events)).not.toContain('ONE');
  });

  it('applies two approved edits of one file from one step; an outside change still makes them stale', async () => {
    const lines = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
    for (const outside of [false, true]) {
      const { dir, toolset } = project({ 'a.txt': lines });
      const { model, seenToolResults } = scriptedModel([
        {
          calls: [
            { id: 'p1', name: 'edit_file', input: edit },
            {
              id: 'p2',
              name: 'edit_file',
              input: { path: '/a.txt', old_string: 'nine', new_string: 'NINE' },
            },
          ],
        },
        { text: 'done' },
      ]);
      const tools = aiSdkTools(toolset, { approval: { mode: 'native' } });
      const messages: ModelMessage[] = [{ role: 'user', content: 'edit' }];
      const r1 = await generateText({ model: model as never, tools, messages, stopWhen: stepCountIs(3) });
      messages.push(...r1.response.messages, await answerApprovals(r1, { toolset, approve: approveAll() }));
      if (outside) fs.appendFileSync(path.join(dir, 'a.txt'), 'ten\n');
      await generateText({ model: model as never, tools, messages, stopWhen: stepCountIs(3) });
      if (outside) {
        expect(read(dir, 'a.txt')).toBe(`${lines}ten\n`);
        expect(seenToolResults()).toContain('stale_approval');
      } else {
        expect(read(dir, 'a.txt')).toBe(lines.replace('one', 'ONE').replace('nine', 'NINE'));
        expect(seenToolResults()).not.toContain('stale_approval');
      }
    }
  });
});
