import { Agent, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkReviewTools, reviewTurn } from '../../adapters/ai-sdk.js';
import { openAIAgentsReviewTools } from '../../adapters/openai-agents.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import type { ChangeSet } from '../../src/staging/change-set.js';
import type { ReviewDecisions } from '../../src/staging/decisions.js';
import { read } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

setTracingDisabled(true);

/** Accepts everything except /b.txt, which is rejected with a note; records what it was shown. */
function reviewer() {
  const shown: { set: ChangeSet; summary?: string }[] = [];
  const review = async (set: ChangeSet, context?: { summary?: string }): Promise<ReviewDecisions> => {
    shown.push({ set, ...(context?.summary ? { summary: context.summary } : {}) });
    return {
      changeSetId: set.id,
      files: Object.fromEntries(
        set.files.map((f) => [
          f.path,
          f.path === '/b.txt'
            ? { action: 'reject' as const, note: 'keep b as it is' }
            : { action: 'accept' as const },
        ]),
      ),
    };
  };
  return { review, shown };
}

const steps = [
  { id: 'c1', name: 'edit_file', input: { path: '/a.txt', old_string: 'one', new_string: 'ONE' } },
  { id: 'c2', name: 'write_file', input: { path: '/b.txt', content: 'bee\n' } },
  { id: 'c3', name: 'read_file', input: { path: '/a.txt' } },
];

describe('review mode (AI SDK)', () => {
  it('stages the writes, reviews them at submit_changes and hands the summary back to the model', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
    const { review, shown } = reviewer();
    const { model, seenToolResults } = scriptedModel([
      { calls: steps },
      { calls: [{ id: 'c4', name: 'submit_changes', input: { summary: 'capitalised a, rewrote b' } }] },
      { text: 'done' },
    ]);
    const result = await generateText({
      model: model as never,
      tools: aiSdkReviewTools(toolset, { review }),
      prompt: 'edit',
      stopWhen: stepCountIs(4),
    });
    expect(result.text).toBe('done');
    expect(shown).toHaveLength(1);
    expect(shown[0]!.summary).toBe('capitalised a, rewrote b');
    // Parallel tool calls stage in whichever order they finish.
    expect(shown[0]!.set.files.map((f) => f.path).sort()).toEqual(['/a.txt', '/b.txt']);
    expect(read(dir, 'a.txt')).toBe('ONE\n');
    expect(read(dir, 'b.txt')).toBe('b\n');
    const seen = seenToolResults();
    expect(seen).toContain('ONE'); // the staged read
    expect(seen).toContain('/b.txt (modified): rejected, the file is unchanged.');
    expect(seen).toContain('keep b as it is');
  });

  it('reviewTurn: reviews after the turn and gives the summary as the next user message', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
    const { review } = reviewer();
    const { model } = scriptedModel([{ calls: steps }, { text: 'finished' }]);
    await generateText({
      model: model as never,
      tools: aiSdkReviewTools(toolset, { review }),
      prompt: 'edit',
      stopWhen: stepCountIs(3),
    });
    expect(read(dir, 'a.txt')).toBe('one\n');
    const { result, message } = await reviewTurn(toolset, review);
    expect(result.ok).toBe(true);
    expect(read(dir, 'a.txt')).toBe('ONE\n');
    expect(message.role).toBe('user');
    expect(message.content).toContain('/a.txt (modified): applied as staged.');
  });
});

describe('review mode (OpenAI Agents)', () => {
  it('stages the writes, reviews them at submit_changes and hands the summary back to the model', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
    const { review, shown } = reviewer();
    const model = new ScriptedModel([
      steps.map((s) => functionCall(s.name, s.input, { callId: s.id })),
      [functionCall('submit_changes', { summary: 'done editing' }, { callId: 'c4' })],
      [assistantMessage('all done')],
    ]);
    const agent = new Agent({ name: 'editor', model, tools: openAIAgentsReviewTools(toolset, { review }) });
    const result = await run(agent, 'edit');
    expect(result.finalOutput).toBe('all done');
    expect(shown[0]!.summary).toBe('done editing');
    expect(read(dir, 'a.txt')).toBe('ONE\n');
    expect(read(dir, 'b.txt')).toBe('b\n');
    const seen = JSON.stringify(model.calls.map((c) => c.request.input));
    expect(seen).toContain('1 applied');
    expect(seen).toContain('keep b as it is');
  });
});
