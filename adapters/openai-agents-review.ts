import { type FunctionTool, tool } from '@openai/agents';
import type { ApprovalCallback } from '../src/contract/approval-types.js';
import type { Reviewer } from '../src/staging/staging-area.js';
import {
  SUBMIT_CHANGES_DESCRIPTION,
  SUBMIT_CHANGES_NAME,
  SubmitChangesInput,
  submitChanges,
} from '../src/staging/submit-changes.js';
import type { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import { openAIAgentsTools } from './openai-agents.js';

const refuseReads: ApprovalCallback = () => ({
  approved: false,
  note: 'This run has no approval callback for reads that need approval.',
  decidedBy: 'system',
});

export interface OpenAIAgentsReviewOptions {
  /** Who reviews the change set (terminalReviewer(), a web review, a test). */
  review: Reviewer;
  /** For reads under mounts with readApproval (writes are reviewed as a set instead). */
  approve?: ApprovalCallback;
}

/**
 * Review mode for the Agents SDK: staged writes, plus `submit_changes`, whose
 * result (what was applied, rejected with notes, edited) goes back to the model.
 */
export function openAIAgentsReviewTools(
  toolset: FileSystemToolset,
  options: OpenAIAgentsReviewOptions,
): FunctionTool[] {
  const staging = toolset.stage();
  const tools = openAIAgentsTools(toolset, {
    approval: { mode: 'blocking', approve: options.approve ?? refuseReads },
  });
  const submit = tool({
    name: SUBMIT_CHANGES_NAME,
    description: SUBMIT_CHANGES_DESCRIPTION,
    parameters: SubmitChangesInput.extend({ summary: SubmitChangesInput.shape.summary.unwrap().nullable() }),
    execute: async (input: { summary: string | null }) =>
      (await submitChanges(staging, options.review, input.summary ? { summary: input.summary } : {})).summary,
  });
  return [...tools, submit as unknown as FunctionTool];
}
