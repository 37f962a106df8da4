import type { ApprovalConfig } from '../src/approval/config.js';
import type { ApprovalPayload } from '../src/approval/payloads.js';
import type { ApprovalCallback, ApprovalResult } from '../src/approval/types.js';
import { validateDecision } from '../src/approval/validate-decision.js';
import type { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import type { ToolCallContext, ToolOutcome } from '../src/tools/types.js';

type BoundState = Pick<ToolCallContext, 'approvedBaseSha256' | 'approvedDestinationSha256'>;

/**
 * What was decided for each pending tool call of a toolset, shared by a
 * framework's needsApproval hook, the helper that answers approvals, and execute:
 * the answer for a pending call never changes, and execution is bound to the file
 * state the user was shown.
 */
export interface Ledger {
  checked: Map<string, ApprovalResult>;
  approvedState: Map<string, BoundState>;
}

const ledgers = new WeakMap<FileSystemToolset, Ledger>();

export function ledgerOf(toolset: FileSystemToolset): Ledger {
  let ledger = ledgers.get(toolset);
  if (!ledger) {
    ledger = { checked: new Map(), approvedState: new Map() };
    ledgers.set(toolset, ledger);
  }
  return ledger;
}

export function stateOf(payload: ApprovalPayload): BoundState {
  return {
    ...(payload.baseSha256 !== undefined ? { approvedBaseSha256: payload.baseSha256 } : {}),
    ...((payload.type === 'move' || payload.type === 'copy') && payload.destinationSha256 !== undefined
      ? { approvedDestinationSha256: payload.destinationSha256 }
      : {}),
  };
}

/** The approval result for a call id, computed once (frameworks may ask again on resume). */
export async function checkOnce(
  toolset: FileSystemToolset,
  name: string,
  input: unknown,
  toolCallId: string,
  config: ApprovalConfig = {},
): Promise<ApprovalResult> {
  const ledger = ledgerOf(toolset);
  const known = ledger.checked.get(toolCallId);
  if (known) return known;
  const result = await toolset.needsApproval(name, input, { toolCallId }, config);
  ledger.checked.set(toolCallId, result);
  return result;
}

/** Executes a natively approved call: blocked calls fail with their reason; others run bound to the approved state. */
export async function executeApproved(
  toolset: FileSystemToolset,
  name: string,
  input: unknown,
  toolCallId: string,
  config: ApprovalConfig = {},
): Promise<ToolOutcome> {
  const ledger = ledgerOf(toolset);
  const result = await checkOnce(toolset, name, input, toolCallId, config);
  ledger.checked.delete(toolCallId);
  if (result.status === 'blocked') {
    return {
      ok: false,
      error: result.error ?? {
        code: 'approval_blocked',
        message: `Blocked by policy, not run: ${result.reason}`,
      },
    };
  }
  const bound =
    ledger.approvedState.get(toolCallId) ??
    (result.status === 'needs_approval' ? stateOf(result.payload) : {});
  ledger.approvedState.delete(toolCallId);
  return toolset.callTool(name, input, { toolCallId, ...bound });
}

/**
 * Shows one pending call's fresh payload to an ApprovalCallback and records the
 * approved state. Returns the decision and, for a denial, the text the model sees.
 */
export async function decidePending(
  toolset: FileSystemToolset,
  approve: ApprovalCallback,
  call: { toolName: string; toolCallId: string; input: unknown },
  config: ApprovalConfig = {},
): Promise<{ approved: boolean; message?: string }> {
  const ledger = ledgerOf(toolset);
  const result = await toolset.needsApproval(
    call.toolName,
    call.input,
    { toolCallId: call.toolCallId },
    config,
  );
  ledger.checked.set(call.toolCallId, result);
  if (result.status === 'pre_approved') return { approved: true };
  if (result.status === 'blocked')
    return { approved: false, message: `Blocked by policy, not run: ${result.reason}` };
  const decision = validateDecision(
    await approve({
      toolName: call.toolName,
      toolCallId: call.toolCallId,
      args: call.input,
      payload: result.payload,
      description: result.payload.description,
    }),
  );
  if (decision.approved) {
    ledger.approvedState.set(call.toolCallId, stateOf(result.payload));
    return { approved: true };
  }
  const what = `${call.toolName} on ${result.payload.path}`;
  return {
    approved: false,
    message: decision.note
      ? `The user denied ${what} and said: "${decision.note}". Do not retry the same call unchanged.`
      : `The user denied ${what}. Do not retry the same call unchanged.`,
  };
}

/** Compact text for a model: read_file's content as text, errors as "error <code>: message". */
export function outcomeText(name: string, outcome: ToolOutcome): string {
  if (!outcome.ok) {
    const e = outcome.error;
    const hints = e.suggestions?.length ? `\nSuggestions: ${e.suggestions.join('; ')}` : '';
    const details = e.details ? `\nDetails: ${JSON.stringify(e.details)}` : '';
    return `error ${e.code}: ${e.message}${hints}${details}`;
  }
  if (name === 'read_file') {
    const { content, ...meta } = outcome.data as { content: string };
    return `${JSON.stringify(meta)}\n${content}`;
  }
  return JSON.stringify(outcome.data);
}
