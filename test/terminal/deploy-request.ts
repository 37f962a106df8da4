import type { ApprovalRequest } from '../../src/contract/approval-types.js';

/** A small generic approval request, numbered so a test can tell its prompts apart. */
export const deployRequest = (n: number): ApprovalRequest => ({
  toolName: 'deploy',
  args: { n },
  description: `deploy #${n}`,
  payload: {
    type: 'generic',
    description: `deploy #${n}`,
    path: '',
    mount: '',
    toolName: 'deploy',
    args: {},
  },
});
