import fs from 'node:fs';
import path from 'node:path';
import { Agent, RunState, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, answerApprovals } from '../../adapters/ai-sdk.js';
import { answerInterruptions, openAIAgentsTools } from '../../adapters/openai-agents.js';
import { type Step, scriptedModel } from '../../examples/scripted-ai-model.js';
import { executeApproved } from '../../src/approval/native-ledger.js';
import { approveAll } from '../../src/approval/policies.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { read, snapshot } from '../helpers/temp-project.js';
import { err, project } from '../tools/fixture.js';

setTracingDisabled(true);

/**
 * One AI SDK round: the model's calls stop for approval; returns what resuming needs.
 * `steps` may be computed from the project first (e.g. anchors of a hashed read).
 */
async function aiRound(
  files: Record<string, string>,
  steps: Step[] | ((p: ReturnType<typeof project>) => Promise<Step[]>),
) {
  const p = project(files);
  const scripted = scriptedModel(Array.isArray(steps) ? steps : await steps(p));
  const tools = aiSdkTools(p.toolset, { approval: { mode: 'native' } });
  const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const r1 = await generateText({
    model: scripted.model as never,
    tools,
    messages,
    stopWhen: stepCountIs(3),
  });
  messages.push(...r1.response.messages);
  const resume = () =>
    generateText({ model: scripted.model as never, tools, messages, stopWhen: stepCountIs(3) });
  return { ...p, ...scripted, tools, messages, r1, resume };
}

/** The tool-call parts of the history, to tamper with. */
function toolCallParts(messages: ModelMessage[]) {
  return messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as Array<{ type: string; input?: unknown }>).filter((p) => p.type === 'tool-call')
      : [],
  );
}

describe('native mode runs only what the user approved (case 2)', () => {
  it('AI SDK: a message history edited after approval is refused with stale_approval', async () => {
    const s = await aiRound({ 'a.txt': 'old\n' }, [
      { calls: [{ id: 'c1', name: 'write_file', input: { path: '/a.txt', content: 'benign\n' } }] },
      { text: 'done' },
    ]);
    s.messages.push(await answerApprovals(s.r1, { toolset: s.toolset, approve: approveAll() }));
    for (const part of toolCallParts(s.messages)) part.input = { path: '/a.txt', content: 'EVIL\n' };
    await s.resume();
    expect(read(s.dir, 'a.txt')).toBe('old\n');
    expect(s.seenToolResults()).toContain('stale_approval');
  });

  it('AI SDK: swapped approval answers never run the denied call', async () => {
    const s = await aiRound({ 'a.txt': 'a\n', 'b.txt': 'b\n' }, [
      {
        calls: [
          { id: 'c1', name: 'write_file', input: { path: '/a.txt', content: 'fine\n' } },
          { id: 'c2', name: 'write_file', input: { path: '/b.txt', content: 'EVIL\n' } },
        ],
      },
      { text: 'done' },
    ]);
    const answer = await answerApprovals(s.r1, {
      toolset: s.toolset,
      approve: (r) => (r.toolCallId === 'c1' ? { approved: true } : { approved: false, note: 'never' }),
    });
    const parts = answer.content as Array<{ approved: boolean }>;
    [parts[0]!.approved, parts[1]!.approved] = [parts[1]!.approved, parts[0]!.approved];
    s.messages.push(answer);
    const before = snapshot(s.dir);
    await s.resume();
    expect(snapshot(s.dir)).toEqual(before);
    expect(s.seenToolResults()).toContain('approval_denied');
  });

  it('a call that needs approval and has no recorded decision is refused, never run blind', async () => {
    const { dir, toolset } = project({ 'a.txt': 'a\n' });
    const outcome = await executeApproved(toolset, 'write_file', { path: '/a.txt', content: 'x\n' }, 'c9');
    expect(err(outcome).code).toBe('approval_blocked');
    expect(read(dir, 'a.txt')).toBe('a\n');
  });

  const agentFor = (toolset: FileSystemToolset, model: ScriptedModel) =>
    new Agent({ name: 'editor', model, tools: openAIAgentsTools(toolset, { approval: { mode: 'native' } }) });
  const seen = (model: ScriptedModel) => JSON.stringify(model.calls.map((c) => c.request.input));

  it('OpenAI Agents: a serialized RunState edited after approval is refused with stale_approval', async () => {
    const { dir, toolset } = project({ 'a.txt': 'old\n' });
    const model = new ScriptedModel([
      [functionCall('write_file', { path: '/a.txt', content: 'benign\n' }, { callId: 'c1' })],
      [assistantMessage('done')],
    ]);
    const agent = agentFor(toolset, model);
    const first = await run(agent, 'go');
    await answerInterruptions(first.state as never, { toolset, approve: approveAll() });
    const saved = first.state.toString();
    expect(saved).toContain('benign');
    const restored = await RunState.fromString(agent, saved.replaceAll('benign', 'EVIL'));
    await run(agent, restored);
    expect(read(dir, 'a.txt')).toBe('old\n');
    expect(seen(model)).toContain('stale_approval');
  });

  it('OpenAI Agents: approvals swapped in a serialized RunState never run the denied call', async () => {
    const { dir, toolset } = project({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const model = new ScriptedModel([
      [
        functionCall('write_file', { path: '/a.txt', content: 'fine\n' }, { callId: 'c1' }),
        functionCall('write_file', { path: '/b.txt', content: 'EVIL\n' }, { callId: 'c2' }),
      ],
      [assistantMessage('done')],
    ]);
    const agent = agentFor(toolset, model);
    const first = await run(agent, 'go');
    await answerInterruptions(first.state as never, {
      toolset,
      approve: (r) => (r.toolCallId === 'c1' ? { approved: true } : { approved: false, note: 'never' }),
    });
    let swapped = 0;
    const swap = (v: unknown): void => {
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (Array.isArray(o.approved) && Array.isArray(o.rejected)) {
        [o.approved, o.rejected] = [o.rejected, o.approved];
        swapped++;
      }
      for (const x of Object.values(o)) swap(x);
    };
    const json = JSON.parse(first.state.toString());
    swap(json);
    expect(swapped).toBeGreaterThan(0);
    const before = snapshot(dir);
    await run(agent, await RunState.fromString(agent, JSON.stringify(json)));
    expect(snapshot(dir)).toEqual(before);
    expect(seen(model)).toContain('approval_denied');
  });

  it('OpenAI Agents: a RunState approved outside the helpers (or in another process) is refused', async () => {
    const { dir, sandbox } = project({ 'a.txt': 'old\n' });
    const model = new ScriptedModel([
      [functionCall('write_file', { path: '/a.txt', content: 'x\n' }, { callId: 'c1' })],
      [assistantMessage('done')],
    ]);
    const first = await run(agentFor(new FileSystemToolset(sandbox), model), 'go');
    const item = first.interruptions[0]!;
    first.state.approve(item);
    // Another process: a fresh toolset over the same sandbox has no record of any decision.
    const agent = agentFor(new FileSystemToolset(sandbox), model);
    await run(agent, await RunState.fromString(agent, first.state.toString()));
    expect(read(dir, 'a.txt')).toBe('old\n');
    expect(seen(model)).toContain('approval_blocked');
  });
});

describe('native rebase of parallel approved edits (case 3)', () => {
  const FILE = ['function a() {', '  let v = 1;', '}', 'function b() {', '  let w = 0;', '}', ''].join('\n');

  it('an edit that would land elsewhere after the other approved edit is stale_approval', async () => {
    const s = await aiRound({ 'f.js': FILE }, [
      {
        calls: [
          {
            id: 'e1',
            name: 'edit_file',
            input: {
              path: '/f.js',
              old_string: '  let v = 1;\n}\nfunction b() {\n  let w = 0;',
              new_string: '  let u = 1;\n}\nfunction b() {\n  let v = 1;',
            },
          },
          {
            id: 'e2',
            name: 'edit_file',
            input: { path: '/f.js', old_string: 'let v = 1;', new_string: 'let v = 9;' },
          },
        ],
      },
      { text: 'done' },
    ]);
    const shown: string[] = [];
    s.messages.push(
      await answerApprovals(s.r1, {
        toolset: s.toolset,
        approve: (r) => {
          shown.push(String((r.payload as { matchLine: number }).matchLine));
          return { approved: true };
        },
      }),
    );
    await s.resume();
    expect(shown).toEqual(['2', '2']);
    // e1 applied; e2 was shown changing a() (line 2) and would now change b(): refused.
    expect(read(s.dir, 'f.js')).toBe(
      FILE.replace('let v = 1', 'let u = 1').replace('let w = 0', 'let v = 1'),
    );
    expect(s.seenToolResults()).toContain('stale_approval');
  });

  it('edits close enough to share context lines are not rebased; distant ones are', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    for (const [second, rebased] of [
      [3, false],
      [12, true],
    ] as const) {
      const s = await aiRound({ 'f.txt': `${lines.join('\n')}\n` }, [
        {
          calls: [
            {
              id: 'e1',
              name: 'edit_file',
              input: { path: '/f.txt', old_string: 'line 1\n', new_string: 'LINE 1\nadded\n' },
            },
            {
              id: 'e2',
              name: 'edit_file',
              input: { path: '/f.txt', old_string: `line ${second}\n`, new_string: `LINE ${second}\n` },
            },
          ],
        },
        { text: 'done' },
      ]);
      s.messages.push(await answerApprovals(s.r1, { toolset: s.toolset, approve: approveAll() }));
      await s.resume();
      const after = read(s.dir, 'f.txt');
      expect(after.startsWith('LINE 1\nadded\n')).toBe(true);
      expect(after.includes(`LINE ${second}\n`)).toBe(rebased);
      expect(s.seenToolResults().includes('stale_approval')).toBe(!rebased);
    }
  });

  it('two edit_lines calls from one step, far apart, both apply (anchors of the one read, rebased)', async () => {
    const lines = `${Array.from({ length: 14 }, (_, i) => `entry number ${i + 1}`).join('\n')}\n`;
    const s = await aiRound({ 'f.txt': lines }, async (p) => {
      const read0 = await p.toolset.callTool('read_file', { path: '/f.txt', hashes: true });
      const hashed = String((read0 as { data: { content: string } }).data.content).split('\n');
      const anchor = (i: number) => hashed[i]!.slice(0, hashed[i]!.indexOf('|'));
      const replace = (id: string, i: number, content: string) => ({
        id,
        name: 'edit_lines',
        input: { path: '/f.txt', operations: [{ op: 'replace_line', hash: anchor(i), content }] },
      });
      return [{ calls: [replace('l1', 0, 'FIRST'), replace('l2', 13, 'LAST')] }, { text: 'done' }];
    });
    s.messages.push(await answerApprovals(s.r1, { toolset: s.toolset, approve: approveAll() }));
    await s.resume();
    expect(read(s.dir, 'f.txt')).toBe(
      lines.replace('entry number 1\n', 'FIRST\n').replace('entry number 14\n', 'LAST\n'),
    );
  });

  it('an outside change in between is never rebased over', async () => {
    const lines = `${Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
    const s = await aiRound({ 'f.txt': lines }, [
      {
        calls: [
          {
            id: 'e1',
            name: 'edit_file',
            input: { path: '/f.txt', old_string: 'line 1\n', new_string: 'LINE 1\n' },
          },
          {
            id: 'e2',
            name: 'edit_file',
            input: { path: '/f.txt', old_string: 'line 12\n', new_string: 'LINE 12\n' },
          },
        ],
      },
      { text: 'done' },
    ]);
    s.messages.push(await answerApprovals(s.r1, { toolset: s.toolset, approve: approveAll() }));
    fs.writeFileSync(path.join(s.dir, 'f.txt'), lines.replace('line 6', 'outside'));
    await s.resume();
    expect(read(s.dir, 'f.txt')).toBe(lines.replace('line 6', 'outside'));
  });
});
