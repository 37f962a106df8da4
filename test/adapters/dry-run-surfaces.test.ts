import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { read } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

// dryRun and unknown arguments through the real AI SDK: its schema validation must neither drop
// dryRun nor strip an unknown key before the toolset sees (and refuses) it.
describe('aiSdkTools: dryRun and unknown arguments', () => {
  it('a dry run returns the diff, asks nobody and writes nothing; an unknown key is refused by name', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\ntwo\n' });
    const asked: string[] = [];
    const { model, seenToolResults } = scriptedModel([
      {
        calls: [
          {
            id: 'c1',
            name: 'edit_file',
            input: { path: '/a.txt', old_string: 'one', new_string: 'ONE', dryRun: true },
          },
          { id: 'c2', name: 'write_file', input: { path: '/a.txt', content: 'x', dry_run: true } },
        ],
      },
      { text: 'done' },
    ]);
    const tools = aiSdkTools(toolset, {
      approval: {
        mode: 'blocking',
        approve: (r) => {
          asked.push(r.toolName);
          return { approved: true };
        },
      },
    });
    await generateText({ model: model as never, tools, prompt: 'edit', stopWhen: stepCountIs(3) });
    expect(asked).toEqual([]);
    expect(read(dir, 'a.txt')).toBe('one\ntwo\n');
    const seen = seenToolResults();
    expect(seen).toContain('dry_run');
    expect(seen).toContain('+ONE');
    expect(seen).toContain('invalid_argument');
    expect(seen).toMatch(/Unknown argument for write_file: [^.]*dry_run/);
  });
});
