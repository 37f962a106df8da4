import type { ToolCallContext, ToolOutcome } from '../tools/types.js';
import {
  type ApprovalBinding,
  type BindingOptions,
  type ExecutingCall,
  verifyBinding,
} from './approval-binding.js';
import { blockedOutcome } from './blocked-outcome.js';
import type { ApprovalResult } from './types.js';
import { userEditedOutcome } from './user-edit.js';

/** What running a bound call needs of a toolset. */
export interface BoundRunner {
  callTool(name: string, args: unknown, ctx: ToolCallContext): Promise<ToolOutcome>;
  check(name: string, args: unknown, ctx: ToolCallContext): Promise<ApprovalResult>;
}

/**
 * Runs a call under its recorded decision, the one path for blocking and native
 * mode: the call must match the binding (else stale_approval; a denial stays
 * approval_denied), the arguments that run are the binding's own copy (the
 * person's edited version re-checked first: a block still wins), and the tool
 * must find the file states the person was shown. `rebased` replaces the bound
 * states when native mode moved an approved edit onto a later approved state.
 */
export async function executeBound(
  runner: BoundRunner,
  binding: ApprovalBinding,
  call: ExecutingCall,
  ctx: ToolCallContext = {},
  options: BindingOptions & { rebased?: ToolCallContext } = {},
): Promise<ToolOutcome> {
  const checked = verifyBinding(binding, call, options);
  if (!checked.ok) return { ok: false, error: checked.error };
  const context: ToolCallContext = { ...ctx, ...checked.context, ...options.rebased };
  const args = checked.args.value;
  if (!checked.edited) return runner.callTool(call.toolName, args, context);
  const recheck = await runner.check(call.toolName, args, ctx);
  if (recheck.status === 'blocked') return blockedOutcome(recheck, "The user's edited call is blocked");
  const outcome = await runner.callTool(call.toolName, args, context);
  return userEditedOutcome(
    outcome,
    JSON.parse(binding.requestedArgs),
    args as Record<string, unknown>,
    binding.note,
  );
}
