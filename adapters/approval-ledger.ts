import { ApprovalMemory, rememberedDecision } from '../src/approval/approval-memory.js';
import { type AuditEvent, type AuditSink, fanOut, toolResultEvent } from '../src/approval/audit-events.js';
import { blockedOutcome } from '../src/approval/blocked-outcome.js';
import type { ApprovalConfig } from '../src/approval/config.js';
import { ApprovalAborted } from '../src/approval/errors.js';
import type { ApprovalPayload } from '../src/approval/payloads.js';
import type {
  ApprovalCallback,
  ApprovalDecision,
  ApprovalRequest,
  ApprovalResult,
} from '../src/approval/types.js';
import { userEditedOutcome } from '../src/approval/user-edit.js';
import { rememberScopeOf, validateDecision } from '../src/approval/validate-decision.js';
import { withFileLock } from '../src/fs/file-lock.js';
import type { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import type { ToolCallContext, ToolOutcome } from '../src/tools/types.js';
import { type AppliedChain, changeSignature, rebasedState } from './approval-rebase.js';

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
  /** Arguments the user edited before approving (e.g. in $EDITOR): these are what runs. */
  edited: Map<string, { args: Record<string, unknown>; note?: string }>;
  /** Remembered decisions when the caller passes no memory of its own (one per toolset). */
  memory: ApprovalMemory;
  /** Native mode's audit sink (the `onEvent` of the adapter's approval option). */
  onEvent?: AuditSink;
  /** The change each approved diff call was shown with (see approval-rebase.ts). */
  signatures: Map<string, string>;
  /** File states produced by approved calls, after → before. */
  applied: AppliedChain;
}

/** Emits one audit event of a call to the toolset's native-mode sink, if any (a failing sink is ignored). */
function audit(
  ledger: Ledger,
  call: { toolName: string; toolCallId: string },
  event: Omit<AuditEvent, 'toolName' | 'toolCallId' | 'timestamp'>,
): void {
  if (!ledger.onEvent) return;
  fanOut(ledger.onEvent)({ ...call, ...event, timestamp: new Date().toISOString() });
}

/** Sets the audit sink for a toolset's natively approved calls. */
export function setNativeAuditSink(toolset: FileSystemToolset, onEvent: AuditSink | undefined): void {
  if (onEvent) ledgerOf(toolset).onEvent = onEvent;
}

const ledgers = new WeakMap<FileSystemToolset, Ledger>();

export function ledgerOf(toolset: FileSystemToolset): Ledger {
  let ledger = ledgers.get(toolset);
  if (!ledger) {
    ledger = {
      checked: new Map(),
      approvedState: new Map(),
      edited: new Map(),
      memory: new ApprovalMemory(),
      signatures: new Map(),
      applied: new Map(),
    };
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

/** Executes a natively approved call (audited as tool_call → tool_result). */
export async function executeApproved(
  toolset: FileSystemToolset,
  name: string,
  input: unknown,
  toolCallId: string,
  config: ApprovalConfig = {},
): Promise<ToolOutcome> {
  const ledger = ledgerOf(toolset);
  const call = { toolName: name, toolCallId };
  const path =
    typeof (input as { path?: unknown })?.path === 'string' ? (input as { path: string }).path : undefined;
  const where = path ? { path } : {};
  const started = performance.now();
  audit(ledger, call, { type: 'tool_call', ...where });
  // Calls on one path run one after another, so each sees the state the previous one left.
  const outcome = await withFileLock(`native\0${path ?? ''}`, () =>
    executeBound(toolset, ledger, name, input, toolCallId, config),
  );
  audit(ledger, call, toolResultEvent(outcome, started, path));
  return outcome;
}

/** Blocked calls fail with their reason; others run bound to the approved state (the user's edited arguments, if any). */
async function executeBound(
  toolset: FileSystemToolset,
  ledger: Ledger,
  name: string,
  input: unknown,
  toolCallId: string,
  config: ApprovalConfig,
): Promise<ToolOutcome> {
  const result = await checkOnce(toolset, name, input, toolCallId, config);
  ledger.checked.delete(toolCallId);
  if (result.status === 'blocked') return blockedOutcome(result);
  const bound =
    ledger.approvedState.get(toolCallId) ??
    (result.status === 'needs_approval' ? stateOf(result.payload) : {});
  ledger.approvedState.delete(toolCallId);
  const edited = ledger.edited.get(toolCallId);
  ledger.edited.delete(toolCallId);
  const signature = ledger.signatures.get(toolCallId);
  ledger.signatures.delete(toolCallId);
  if (!edited) {
    if (signature && bound.approvedBaseSha256) {
      const call = { name, input, toolCallId };
      bound.approvedBaseSha256 = await rebasedState(
        toolset,
        call,
        bound.approvedBaseSha256,
        signature,
        ledger.applied,
        config,
      );
    }
    return recordApplied(ledger, bound, await toolset.callTool(name, input, { toolCallId, ...bound }));
  }
  // The user's version runs, re-checked first: a block still wins over an approval.
  const recheck = await toolset.needsApproval(name, edited.args, { toolCallId }, config);
  if (recheck.status === 'blocked') return blockedOutcome(recheck, "The user's edited call is blocked");
  const outcome = await toolset.callTool(name, edited.args, { toolCallId, ...bound });
  return userEditedOutcome(recordApplied(ledger, bound, outcome), input, edited.args, edited.note);
}

/** Notes the file state an approved call produced from the state it was approved on. */
function recordApplied(ledger: Ledger, bound: BoundState, outcome: ToolOutcome): ToolOutcome {
  const after = outcome.ok ? (outcome.data as { sha256?: unknown } | null)?.sha256 : undefined;
  if (typeof after === 'string' && bound.approvedBaseSha256)
    ledger.applied.set(after, bound.approvedBaseSha256);
  return outcome;
}

/** A remembered decision for the request, else the callback's (remembered at the scope the user picked). */
async function decideWithMemory(
  approve: ApprovalCallback,
  request: ApprovalRequest,
  memory: ApprovalMemory,
  ledger: Ledger,
): Promise<ApprovalDecision> {
  const call = { toolName: request.toolName, toolCallId: request.toolCallId ?? '' };
  const where = { path: request.payload.path, payloadType: request.payload.type };
  const hit = memory.lookup(request);
  if (hit) {
    audit(ledger, call, { type: 'approval_decided', ...where, decision: 'remembered' });
    return rememberedDecision(hit);
  }
  audit(ledger, call, { type: 'approval_requested', ...where });
  let decision: ApprovalDecision;
  try {
    decision = validateDecision(await approve(request));
  } catch (error) {
    if (error instanceof ApprovalAborted)
      audit(ledger, call, { type: 'approval_decided', ...where, decision: 'aborted' });
    throw error;
  }
  const scope = rememberScopeOf(decision);
  if (scope) memory.remember(request, scope, decision.approved, decision.note);
  audit(ledger, call, {
    type: 'approval_decided',
    ...where,
    decision: decision.approved ? 'approved' : 'denied',
    ...(decision.note ? { note: decision.note } : {}),
    ...(scope ? { remember: scope } : {}),
  });
  return decision;
}

/**
 * Shows one pending call's fresh payload to an ApprovalCallback (unless a
 * remembered decision covers it) and records the approved state and any arguments
 * the user edited. Returns the decision and, for a denial, the text the model sees.
 */
export async function decidePending(
  toolset: FileSystemToolset,
  approve: ApprovalCallback,
  call: { toolName: string; toolCallId: string; input: unknown },
  config: ApprovalConfig = {},
  memory?: ApprovalMemory,
): Promise<{ approved: boolean; message?: string }> {
  const ledger = ledgerOf(toolset);
  const result = await toolset.needsApproval(
    call.toolName,
    call.input,
    { toolCallId: call.toolCallId },
    config,
  );
  ledger.checked.set(call.toolCallId, result);
  if (result.status !== 'needs_approval') {
    const decision = result.status === 'blocked' ? 'blocked' : 'pre_approved';
    audit(ledger, call, { type: 'approval_decided', decision });
    if (result.status === 'pre_approved') return { approved: true };
    return { approved: false, message: `Blocked by policy, not run: ${result.reason}` };
  }
  const request: ApprovalRequest = {
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    args: call.input,
    payload: result.payload,
    description: result.payload.description,
  };
  const decision = await decideWithMemory(approve, request, memory ?? ledger.memory, ledger);
  if (decision.approved) {
    ledger.approvedState.set(call.toolCallId, stateOf(result.payload));
    const signature = changeSignature(result.payload);
    if (signature) ledger.signatures.set(call.toolCallId, signature);
    if (decision.overrideArgs)
      ledger.edited.set(call.toolCallId, {
        args: decision.overrideArgs,
        ...(decision.note ? { note: decision.note } : {}),
      });
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
