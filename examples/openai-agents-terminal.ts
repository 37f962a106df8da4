// `npx tsx examples/openai-agents-terminal.ts`: the OpenAI Agents SDK with the sandboxed
// tools and terminal approvals (native interruptions, answered by `runWithApprovals`).
// With OPENAI_API_KEY set a real model does the work; otherwise a scripted model plays
// the same moves offline.
import { Agent, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { ApprovalMemory } from 'sandbox-approval';
import { openAIAgentsTools, runWithApprovals } from 'sandbox-approval/openai-agents';
import { terminalApprover } from 'sandbox-approval/terminal';
import { SCRIPT, sampleWorkspace } from './sample-workspace.js';

const online = Boolean(process.env.OPENAI_API_KEY);
if (!online) setTracingDisabled(true);
const model = online
  ? (process.env.OPENAI_MODEL ?? 'gpt-4.1-mini')
  : new ScriptedModel([
      [functionCall('read_file', SCRIPT.read, { callId: 'read-1' })],
      [functionCall('edit_file', SCRIPT.edit, { callId: 'edit-1' })],
      [functionCall('write_file', SCRIPT.escape, { callId: 'write-1' })],
      [
        assistantMessage(
          'Done: the summary now reads "N of M done". Writing outside the project was refused.',
        ),
      ],
    ]);

const { dir, toolset } = sampleWorkspace();
const memory = new ApprovalMemory();
const agent = new Agent({
  name: 'editor',
  instructions: 'You edit files in the sandbox with the file tools. Read a file before editing it.',
  model,
  tools: openAIAgentsTools(toolset, { approval: { mode: 'native' } }),
});

console.log(`Working on a copy of the sample project in ${dir}\n`);
const result = await runWithApprovals(agent, SCRIPT.prompt, {
  toolset,
  approve: terminalApprover({ memory }),
  memory,
});
console.log(`\nmodel › ${result.finalOutput}`);
console.log(
  'Changes:',
  toolset
    .history()
    .map((c) => `${c.toolName} ${c.path}`)
    .join(', ') || 'none',
);
