import type { ApprovalResult } from '../contract/approval-types.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';

/**
 * The outcome of a blocked call: the tool's own error when it already knows the
 * call would fail, otherwise `approval_blocked` with the reason.
 */
export function blockedOutcome(
  result: Extract<ApprovalResult, { status: 'blocked' }>,
  lead = 'Blocked by policy, not run',
): ToolOutcome {
  return {
    ok: false,
    error: result.error ?? { code: 'approval_blocked', message: `${lead}: ${result.reason}` },
  };
}
