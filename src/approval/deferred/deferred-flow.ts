import type { ApprovalResult } from '../../contract/approval-types.js';
import type { ToolOutcome } from '../../contract/tool-outcome.js';
import { ledgerOf } from '../native-ledger.js';
import type { Toolset } from '../toolset.js';
import type { DeferredApprovals } from './deferred-approvals.js';

/**
 * The deferred flow of one call, framework-neutral: a request that needs
 * approval is recorded when first shown, answered in a later request (maybe in
 * another process), and claimed into the native ledger before it runs. An
 * adapter only hands over the message history its framework keeps.
 */

/** A call as the deferred flow sees it; `messages` is the conversation history (plain message objects). */
export interface DeferredCall {
  toolName: string;
  input: unknown;
  toolCallId: string;
  messages: unknown;
}

/** Whether a message history already holds an approval response for the call (the run is resuming it). */
function answeredIn(messages: unknown, toolCallId: string): boolean {
  if (!Array.isArray(messages)) return false;
  const parts = messages.flatMap((m: { content?: unknown }) =>
    Array.isArray(m?.content) ? (m.content as Array<Record<string, unknown>>) : [],
  );
  const approvalIds = new Set(
    parts
      .filter((p) => p.type === 'tool-approval-request' && p.toolCallId === toolCallId)
      .map((p) => p.approvalId),
  );
  return parts.some((p) => p.type === 'tool-approval-response' && approvalIds.has(p.approvalId));
}

/**
 * Records what a request that needs approval shows (the first showing holds).
 * The framework asks again on resume, after the person answered: that re-check
 * never records anything, or a lost record would be replaced by one of the
 * current file state, which the person never saw.
 */
export async function recordAsked(
  deferred: DeferredApprovals | undefined,
  toolset: Toolset,
  call: DeferredCall,
  result: ApprovalResult,
): Promise<ApprovalResult> {
  const { toolName, input, toolCallId } = call;
  // Denials in the history are settled first: a later request cannot flip them.
  await deferred?.settleDenials(call.messages);
  if (deferred && result.status === 'needs_approval' && !answeredIn(call.messages, toolCallId))
    await deferred.ask({
      toolName,
      toolCallId,
      sandboxId: toolset.sandbox.identity,
      input,
      payload: result.payload,
      ...(result.targets !== undefined ? { targets: result.targets } : {}),
    });
  return result;
}

/**
 * Whether the call resumes a recorded approval: it still needs one (answering
 * "not needed" would turn the person's answer into nothing), and execution
 * decides against what was shown (stale_approval when the file changed since).
 */
export async function resumesRecorded(
  deferred: DeferredApprovals | undefined,
  toolset: Toolset,
  messages: unknown,
  toolCallId: string,
): Promise<boolean> {
  if (!deferred || !answeredIn(messages, toolCallId)) return false;
  return (await deferred.shown(toolCallId, toolset.sandbox.identity)) !== undefined;
}

/**
 * Before a call runs: the recorded request becomes the call's binding (unless
 * this process recorded a decision itself); a used, denied, expired, altered or
 * foreign record refuses it. Undefined means: go on to execute.
 */
export async function claimDeferred(
  deferred: DeferredApprovals | undefined,
  toolset: Toolset,
  toolCallId: string,
): Promise<ToolOutcome | undefined> {
  if (!deferred) return undefined;
  // The store alone authorises: no pending record means the call runs only if it needs no approval now.
  const claimed = await deferred.claim(toolCallId, toolset.sandbox.identity);
  if (claimed.status === 'refused') return { ok: false, error: claimed.error };
  const { bindings } = ledgerOf(toolset);
  if (claimed.status === 'bound' && !bindings.has(toolCallId)) bindings.set(toolCallId, claimed.binding);
  return undefined;
}
