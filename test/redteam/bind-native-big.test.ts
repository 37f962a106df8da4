// Red team (rt-bind): native mode with multi-MB arguments, history / RunState edited between approval
// and execution by one character at (or next to) a 64 Ki boundary, or re-escaped / reordered (same value).
import fs from 'node:fs';
import path from 'node:path';
import { Agent, RunState, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, answerApprovals } from '../../adapters/ai-sdk.js';
import { answerInterruptions, openAIAgentsTools } from '../../adapters/openai-agents.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { project } from '../tools/fixture.js';

setTracingDisabled(true);
const K = 1 << 16;
const pieces = ['"', '\\', '\n', '\r', '\u2028', '\u2029', '\ud83d\ude00', '\u0001', '\u202e', 'é'];

/** content with odd pieces at 64 Ki boundaries and one marker 'Q' at the boundary `qAt`. */
const contentArb = fc
  .tuple(
    fc.integer({ min: 2, max: 40 }),
    fc.array(fc.tuple(fc.constantFrom(...pieces), fc.integer({ min: -1, max: 1 })), {
      minLength: 1,
      maxLength: 4,
    }),
    fc.integer({ min: -1, max: 1 }),
  )
  .map(([blocks, ins, qOff]) => {
    const chars = 'x'.repeat(blocks * K + 7).split('');
    ins.forEach(([p, off], i) => {
      chars[(((i * 31) % blocks) + 1) * K + off - 2] = p;
    });
    chars[Math.floor(blocks / 2) * K + qOff] = 'Q';
    return chars.join('');
  });

type Edit = 'none' | 'flip' | 'reorder' | 'append';
function editInput(input: Record<string, unknown>, how: Edit): Record<string, unknown> {
  const c = input.content as string;
  if (how === 'flip') return { ...input, content: c.replace('Q', 'R') };
  if (how === 'append') return { ...input, content: `${c}\u0000` };
  if (how === 'reorder') return { content: c, path: input.path };
  return input;
}

describe('AI SDK native, multi-MB write_file', () => {
  it('history edited by one character is refused; unedited or reordered runs exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        contentArb,
        fc.constantFrom<Edit>('none', 'flip', 'reorder', 'append'),
        async (content, how) => {
          const p = project({ 'a.txt': 'old\n' });
          const scripted = scriptedModel([
            { calls: [{ id: 'c1', name: 'write_file', input: { path: '/a.txt', content } }] },
            { text: 'done' },
          ]);
          const tools = aiSdkTools(p.toolset, { approval: { mode: 'native' } });
          const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
          const r1 = await generateText({
            model: scripted.model as never,
            tools,
            messages,
            stopWhen: stepCountIs(3),
          });
          messages.push(...r1.response.messages);
          messages.push(
            await answerApprovals(r1, { toolset: p.toolset, approve: () => ({ approved: true }) }),
          );
          // edit the tool-call part(s) in history
          const edited = JSON.parse(JSON.stringify(messages)) as ModelMessage[];
          for (const m of edited)
            if (Array.isArray(m.content))
              for (const part of m.content as Array<{ type: string; input?: Record<string, unknown> }>)
                if (part.type === 'tool-call' && part.input) part.input = editInput(part.input, how);
          await generateText({
            model: scripted.model as never,
            tools,
            messages: edited,
            stopWhen: stepCountIs(3),
          });
          const disk = fs.readFileSync(path.join(p.dir, 'a.txt'), 'utf8');
          if (how === 'flip' || how === 'append') {
            expect(disk).toBe('old\n');
            expect(scripted.seenToolResults()).toContain('stale_approval');
          } else {
            expect(disk === content).toBe(true);
          }
          fs.rmSync(p.dir, { recursive: true, force: true });
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe('OpenAI Agents native, multi-MB write_file, RunState string edited', () => {
  const variants: Array<[string, (s: string) => string, boolean]> = [
    ['one char at a 64 Ki boundary', (s) => s.replaceAll('Q', 'R'), false],
    ['x re-escaped as \\u0078 (same value)', (s) => s.replaceAll('xxQ', '\\\\u0078xQ'), true],
    ['NUL appended to content', (s) => s.replaceAll('Q', 'Q\\\\u0000'), false],
    ['unedited', (s) => s, true],
  ];
  for (const [name, edit, runs] of variants) {
    it(name, async () => {
      const content = 'x'.repeat(3 * K - 2) + 'xQ' + 'x'.repeat(2 * K) + '\u2028"\\\n' + 'x'.repeat(5);
      const { dir, toolset } = project({ 'a.txt': 'old\n' });
      const model = new ScriptedModel([
        [functionCall('write_file', { path: '/a.txt', content }, { callId: 'c1' })],
        [assistantMessage('done')],
      ]);
      const agent = new Agent({
        name: 'e',
        model,
        tools: openAIAgentsTools(toolset, { approval: { mode: 'native' } }),
      });
      const first = await run(agent, 'go');
      await answerInterruptions(first.state as never, { toolset, approve: () => ({ approved: true }) });
      const saved = first.state.toString();
      const changed = edit(saved);
      if (name !== 'unedited') expect(changed).not.toBe(saved);
      try {
        await run(agent, await RunState.fromString(agent, changed));
      } catch (error) {
        // the SDK may refuse an edited state itself; that is fine as long as nothing else runs
        if (name === 'unedited') throw error;
      }
      const disk = fs.readFileSync(path.join(dir, 'a.txt'), 'utf8');
      if (name === 'unedited') expect(disk === content).toBe(true);
      else if (runs) expect(disk === content || disk === 'old\n').toBe(true);
      else expect(disk).toBe('old\n');
    });
  }
});
