import { withFileLock } from '../fs/file-lock.js';
import type { ToolCallContext, ToolOutcome } from '../tools/types.js';
import { type ApprovalBinding, createBinding, deniedError, unapprovedError } from './approval-binding.js';
import { ApprovalMemory, rememberedDecision } from './approval-memory.js';
import { type AuditEvent, type AuditSink, fanOut, toolResultEvent } from './audit-events.js';
import { blockedOutcome } from './blocked-outcome.js';
import { type CallArguments, captureArguments, requestCopy } from './call-arguments.js';
import type { ApprovalConfig } from './config.js';
import { ApprovalAborted } from './errors.js';
import { executeBound } from './execute-bound.js';
import { type AppliedChain, rebasedContext } from './rebase.js';
import type { Toolset } from './toolset.js';
import type { ApprovalCallback, ApprovalDecision, ApprovalRequest, ApprovalResult } from './types.js';
import { rememberScopeOf, validateDecision } from './validate-decision.js';

/**
 * Native mode (the framework's own approval pause): the framework adapters call
 * these to answer pending calls and to execute them, and hold no approval logic
 * of their own.
 */

/**
 * What was decided for each pending tool call of a toolset, shared by a
 * framework's needsApproval hook, the helper that answers approvals, and execute.
 * Each decision is an ApprovalBinding keyed by tool-call id: execution runs only
 * what it binds (the arguments and file states shown), whatever the framework
 * passes back after its message history or RunState went through other hands.
 */
export interface Ledger {
  /** The hook's answer per call id (frameworks may ask again on resume). */
  checked: Map<string, ApprovalResult>;
  /** The decision per call id, recorded when the request was shown; consumed by execution. */
  bindings: Map<string, ApprovalBinding>;
  /** Remembered decisions when the caller passes no memory of its own (one per toolset). */
  memory: ApprovalMemory;
  /** Native mode's audit sink (the `onEvent` of the adapter's approval option). */
  onEvent?: AuditSink;
  /** File states produced by approved calls (see src/approval/rebase.ts). */
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
export function setNativeAuditSink(toolset: Toolset, onEvent: AuditSink | undefined): void {
  if (onEvent) ledgerOf(toolset).onEvent = onEvent;
}

const ledgers = new WeakMap<Toolset, Ledger>();

export function ledgerOf(toolset: Toolset): Ledger {
  let ledger = ledgers.get(toolset);
  if (!ledger) {
    ledger = { checked: new Map(), bindings: new Map(), memory: new ApprovalMemory(), applied: new Map() };
    ledgers.set(toolset, ledger);
  }
  return ledger;
}

/** The approval result for a call id, computed once (frameworks may ask again on resume). */
export async function checkOnce(
  toolset: Toolset,
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
  toolset: Toolset,
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
  // Calls on one file (any spelling) run one after another, so each sees the state the previous one left.
  const run = () => executeNative(toolset, ledger, name, input, toolCallId, config);
  const outcome = await toolset
    .lockKeys(name, input)
    .reduceRight<() => Promise<ToolOutcome>>(
      (next, key) => () => withFileLock(`native\0${key}`, next),
      run,
    )();
  audit(ledger, call, toolResultEvent(outcome, started, path));
  return outcome;
}

/**
 * With a recorded decision, the call runs only as bound (see executeBound). Without
 * one, it runs only if it needs no approval now; otherwise it is refused, never
 * run blind (e.g. arguments tampered with to reach a file that needs approval).
 */
async function executeNative(
  toolset: Toolset,
  ledger: Ledger,
  name: string,
  input: unknown,
  toolCallId: string,
  config: ApprovalConfig,
): Promise<ToolOutcome> {
  ledger.checked.delete(toolCallId);
  const binding = ledger.bindings.get(toolCallId);
  ledger.bindings.delete(toolCallId);
  const ctx = { toolCallId };
  if (!binding) {
    const now = await toolset.needsApproval(name, input, ctx, config);
    if (now.status === 'blocked') return blockedOutcome(now);
    if (now.status === 'pre_approved') return toolset.callTool(name, input, ctx);
    return { ok: false, error: unapprovedError(name, toolCallId) };
  }
  let rebased: ToolCallContext | undefined;
  let diff = binding.shownDiff;
  if (binding.approved && binding.shownDiff !== undefined && typeof binding.baseSha256 === 'string') {
    const now = await toolset.needsApproval(name, input, ctx, config);
    if (now.status === 'needs_approval' && now.payload.baseSha256 !== binding.baseSha256) {
      rebased = rebasedContext(binding, now.payload, ledger.applied);
      if (rebased) diff = (now.payload as { unifiedDiff?: string }).unifiedDiff;
    }
  }
  const runner = {
    callTool: (n: string, a: unknown, c: ToolCallContext) => toolset.callTool(n, a, c),
    check: (n: string, a: unknown, c: ToolCallContext) => toolset.needsApproval(n, a, c, config),
  };
  const executing = { toolName: name, toolCallId, args: input, sandboxId: toolset.sandbox.identity };
  const outcome = await executeBound(runner, binding, executing, ctx, rebased ? { rebased } : {});
  const before = rebased?.approvedBaseSha256 ?? binding.baseSha256;
  const after = outcome.ok ? (outcome.data as { sha256?: unknown } | null)?.sha256 : undefined;
  if (typeof after === 'string' && typeof before === 'string' && after !== before)
    ledger.applied.set(after, { before, diff: binding.runArgs === binding.requestedArgs ? diff : undefined });
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
    // The callback gets its own copies; the originals are what is remembered and bound.
    decision = validateDecision(await approve(requestCopy(request)));
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
 * remembered decision covers it) and records the decision as a binding of the
 * call: its arguments (a private copy), the file states shown and any arguments
 * the user edited. Returns the decision and, for a denial, the text the model sees.
 */
export async function decidePending(
  toolset: Toolset,
  approve: ApprovalCallback,
  call: { toolName: string; toolCallId: string; input: unknown },
  config: ApprovalConfig = {},
  memory?: ApprovalMemory,
): Promise<{ approved: boolean; message?: string }> {
  const ledger = ledgerOf(toolset);
  let captured: CallArguments;
  try {
    captured = captureArguments(call.input);
  } catch {
    return {
      approved: false,
      message: `The arguments of ${call.toolName} are not plain JSON data; not run.`,
    };
  }
  const ctx = { toolCallId: call.toolCallId };
  const result = await toolset.needsApproval(call.toolName, captured.value, ctx, config);
  ledger.checked.set(call.toolCallId, result);
  ledger.bindings.delete(call.toolCallId);
  if (result.status !== 'needs_approval') {
    const decision = result.status === 'blocked' ? 'blocked' : 'pre_approved';
    audit(ledger, call, { type: 'approval_decided', decision });
    if (result.status === 'pre_approved') return { approved: true };
    return { approved: false, message: `Blocked by policy, not run: ${result.reason}` };
  }
  const sandboxId = toolset.sandbox.identity;
  const request: ApprovalRequest = {
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    sandboxId,
    args: captured.value,
    payload: result.payload,
    description: result.payload.description,
  };
  const decision = await decideWithMemory(approve, request, memory ?? ledger.memory, ledger);
  const binding = createBinding({
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    sandboxId,
    requested: captured,
    payload: result.payload,
    approved: decision.approved,
    ...(decision.note !== undefined ? { note: decision.note } : {}),
    ...(decision.decidedBy ? { decidedBy: decision.decidedBy } : {}),
    ...(decision.approved && decision.overrideArgs
      ? { edited: captureArguments(decision.overrideArgs) }
      : {}),
  });
  ledger.bindings.set(call.toolCallId, binding);
  if (decision.approved) return { approved: true };
  return { approved: false, message: deniedError(binding).message };
}
