import { type ModelMessage, type Tool, tool } from 'ai';
import type { ApprovalCallback } from '../src/contract/approval-types.js';
import type { ApplyResult } from '../src/staging/apply-change-set.js';
import type { Reviewer } from '../src/staging/staging-area.js';
import {
  SUBMIT_CHANGES_DESCRIPTION,
  SubmitChangesInput,
  submitChanges,
} from '../src/staging/submit-changes.js';
import type { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import { aiSdkTools, type SandboxToolSet } from './ai-sdk.js';

/** Reads that a mount marks readApproval still ask; with no `approve` they are refused. */
const refuseReads: ApprovalCallback = () => ({
  approved: false,
  note: 'This run has no approval callback for reads that need approval.',
  decidedBy: 'system',
});

export interface AiSdkReviewOptions {
  /** Who reviews the change set (terminalReviewer(), a web review, a test). */
  review: Reviewer;
  /** For reads under mounts with readApproval (writes are reviewed as a set instead). */
  approve?: ApprovalCallback;
}

/**
 * Review mode: the toolset's tools stage every write (the agent reads its own
 * changes back), plus `submit_changes`, which the model calls at the end of its
 * work; the person reviews the whole set and the tool result tells the model
 * what was applied, rejected (with notes) and edited.
 */
export function aiSdkReviewTools(
  toolset: FileSystemToolset,
  options: AiSdkReviewOptions,
): SandboxToolSet & { submit_changes: Tool<SubmitChangesInput, string> } {
  const staging = toolset.stage();
  const tools = aiSdkTools(toolset, {
    approval: { mode: 'blocking', approve: options.approve ?? refuseReads },
  });
  const submit = tool({
    description: SUBMIT_CHANGES_DESCRIPTION,
    inputSchema: SubmitChangesInput,
    execute: async (input: SubmitChangesInput) =>
      (await submitChanges(staging, options.review, input)).summary,
  });
  return { ...tools, submit_changes: submit };
}

/**
 * The other flow: let the agent finish its turn, then review what it staged and
 * hand the summary back as the next user message.
 */
export async function reviewTurn(
  toolset: FileSystemToolset,
  review: Reviewer,
): Promise<{ result: ApplyResult; message: ModelMessage }> {
  const result = await toolset.stage().review(review);
  return { result, message: { role: 'user', content: `Review of your changes:\n${result.summary}` } };
}
