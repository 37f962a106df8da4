import type { ToolOutcome } from '../tools/types.js';
import type { ApprovalResult } from './types.js';

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
