import { z } from 'zod';
import type { ApplyResult } from './apply-change-set.js';
import type { Reviewer, StagingArea } from './staging-area.js';

/** The `submit_changes` tool as every front end offers it (AI SDK, Agents, MCP). */
export const SUBMIT_CHANGES_NAME = 'submit_changes';

export const SUBMIT_CHANGES_DESCRIPTION = [
  'Call this once, when your changes for this task are complete. Until then your file changes are staged:',
  'you read them back as if written, but nothing is on disk. The person then reviews every changed file',
  '(accept, reject or edit it, per file and per change) and only what they approve is written, all at once.',
  'The result says what was applied, partly applied, edited by the person or rejected (with their notes);',
  'read files the person edited or partly applied again before changing them.',
].join(' ');

export const SubmitChangesInput = z.object({
  summary: z
    .string()
    .max(2000)
    .optional()
    .describe('One or two sentences for the reviewer: what you changed and why.'),
});
export type SubmitChangesInput = z.infer<typeof SubmitChangesInput>;

/** Shows the staged set to the reviewer and applies what they decide; the summary is for the model. */
export async function submitChanges(
  staging: StagingArea,
  review: Reviewer,
  input: SubmitChangesInput = {},
): Promise<ApplyResult> {
  return staging.review((set) => review(set, input.summary === undefined ? {} : { summary: input.summary }));
}
