// `npx tsx examples/openai-agents-review.ts`: the OpenAI Agents SDK in review mode. The
// agent's writes are staged; at submit_changes you review the whole change set in the
// terminal and the agent gets the summary. With OPENAI_API_KEY set a real model does
// the work; otherwise a scripted model plays the same moves offline.
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { openAIAgentsReviewTools } from 'sandbox-approval/openai-agents';
import { terminalReviewer } from 'sandbox-approval/terminal';
import { SCRIPT, sampleWorkspace } from './sample-workspace.js';

const online = Boolean(process.env.OPENAI_API_KEY);
if (!online) setTracingDisabled(true);
const model = online
  ? (process.env.OPENAI_MODEL ?? 'gpt-4.1-mini')
  : new ScriptedModel([
      [functionCall('read_file', SCRIPT.read, { callId: 'read-1' })],
      [functionCall('edit_file', SCRIPT.edit, { callId: 'edit-1' })],
      [functionCall('submit_changes', { summary: 'Summary reads "N of M done".' }, { callId: 'submit-1' })],
      [assistantMessage('Done; the review result is in my last tool output.')],
    ]);
const { dir, toolset } = sampleWorkspace();
const agent = new Agent({
  name: 'editor',
  model,
  instructions: 'When your edits are complete, call submit_changes once.',
  tools: openAIAgentsReviewTools(toolset, { review: terminalReviewer() }),
});
const result = await run(agent, SCRIPT.prompt);
console.log(`${result.finalOutput}\n(files in ${dir})`);
