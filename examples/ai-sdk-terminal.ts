// `npx tsx examples/ai-sdk-terminal.ts`: the Vercel AI SDK with the sandboxed tools and
// terminal approvals in native mode (the SDK pauses; you answer; it resumes).
// With OPENAI_API_KEY set (and `npm install @ai-sdk/openai`) a real model does the work;
// otherwise a scripted model plays the same moves offline.
import { generateText, type LanguageModel, type ModelMessage, stepCountIs } from 'ai';
import { ApprovalMemory } from 'sandbox-approval';
import { aiSdkTools, answerApprovals, responseMessagesOf } from 'sandbox-approval/ai-sdk';
import { terminalApprover } from 'sandbox-approval/terminal';
import { SCRIPT, sampleWorkspace } from './sample-workspace.js';
import { scriptedModel } from './scripted-ai-model.js';

async function chooseModel(): Promise<LanguageModel> {
  if (!process.env.OPENAI_API_KEY) {
    return scriptedModel([
      { calls: [{ id: 'read-1', name: 'read_file', input: SCRIPT.read }] },
      { calls: [{ id: 'edit-1', name: 'edit_file', input: SCRIPT.edit }] },
      { calls: [{ id: 'write-1', name: 'write_file', input: SCRIPT.escape }] },
      { text: 'Done: the summary now reads "N of M done". Writing outside the project was refused.' },
    ]).model as LanguageModel;
  }
  const provider = '@ai-sdk/openai'; // optional: not a dependency of this package
  const { openai } = (await import(provider)) as { openai: (id: string) => LanguageModel };
  return openai(process.env.OPENAI_MODEL ?? 'gpt-4.1-mini');
}

const { dir, toolset } = sampleWorkspace();
const memory = new ApprovalMemory();
const approve = terminalApprover({ memory });
const tools = aiSdkTools(toolset, { approval: { mode: 'native' } });
const model = await chooseModel();
const messages: ModelMessage[] = [{ role: 'user', content: SCRIPT.prompt }];

console.log(`Working on a copy of the sample project in ${dir}\n`);
for (let round = 0; round < 10; round++) {
  const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(10) });
  // Every step's messages, on ai v6 and v7 alike (v7's response.messages is the last step only).
  messages.push(...responseMessagesOf(result));
  const pending = result.content.filter((p) => p.type === 'tool-approval-request');
  if (pending.length === 0) {
    console.log(`\nmodel › ${result.text}`);
    break;
  }
  // Shows each pending call's typed payload in the terminal; the answers resume the run.
  messages.push(await answerApprovals(result, { toolset, approve, memory }));
}
console.log(
  '\nChanges:',
  toolset
    .history()
    .map((c) => `${c.toolName} ${c.path}`)
    .join(', ') || 'none',
);
