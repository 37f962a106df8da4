// `npx tsx examples/ai-sdk-review.ts`: the Vercel AI SDK in review mode. The agent's
// writes are staged; when it calls submit_changes you review the whole change set in
// the terminal, and the model is told what was applied, rejected (with notes) and edited.
// With OPENAI_API_KEY set (and `npm install @ai-sdk/openai`) a real model does the work;
// otherwise a scripted model plays the same moves offline.
import { generateText, type LanguageModel, stepCountIs } from 'ai';
import { aiSdkReviewTools } from 'sandbox-approval/ai-sdk';
import { terminalReviewer } from 'sandbox-approval/terminal';
import { SCRIPT, sampleWorkspace } from './sample-workspace.js';
import { scriptedModel } from './scripted-ai-model.js';

async function chooseModel(): Promise<LanguageModel> {
  if (!process.env.OPENAI_API_KEY) {
    return scriptedModel([
      { calls: [{ id: 'read-1', name: 'read_file', input: SCRIPT.read }] },
      { calls: [{ id: 'edit-1', name: 'edit_file', input: SCRIPT.edit }] },
      {
        calls: [
          { id: 'submit-1', name: 'submit_changes', input: { summary: 'Summary reads "N of M done".' } },
        ],
      },
      { text: 'Done; see the review result above.' },
    ]).model as LanguageModel;
  }
  const provider = '@ai-sdk/openai'; // optional: not a dependency of this package
  const { openai } = (await import(provider)) as { openai: (id: string) => LanguageModel };
  return openai(process.env.OPENAI_MODEL ?? 'gpt-4.1-mini');
}

const { dir, toolset } = sampleWorkspace();
const result = await generateText({
  model: await chooseModel(),
  tools: aiSdkReviewTools(toolset, { review: terminalReviewer() }),
  system: 'When your edits are complete, call submit_changes once.',
  prompt: SCRIPT.prompt,
  stopWhen: stepCountIs(8),
});
for (const step of result.steps)
  for (const r of step.toolResults)
    if (r.toolName === 'submit_changes') console.log(`Review result:\n${r.output}`);
console.log(`\n${result.text}\n(files in ${dir})`);
