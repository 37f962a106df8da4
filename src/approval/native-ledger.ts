import type { ApprovalCallback, ApprovalConfig, ApprovalResult } from '../contract/approval-types.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';
import { type ApprovalBinding, deniedError, unapprovedError } from './approval-binding.js';
import {
  approvalRequest,
  askPerson,
  bindDecision,
  type EngineToolset,
  runBound,
  underFileLocks,
} from './approval-engine.js';
import { ApprovalMemory } from './approval-memory.js';
import { type AuditEvent, type AuditSink, fanOut, toolResultEvent } from './audit-events.js';
import { blockedOutcome } from './blocked-outcome.js';
import { type CallArguments, captureArguments } from './call-arguments.js';
import type { AppliedChain } from './rebase.js';
import type { Toolset } from './toolset.js';

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

/** Executes a natively approved call (audited as tool_call → tool_result), through the approval engine. */
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
  const started = performance.now();
  audit(ledger, call, { type: 'tool_call', ...(path ? { path } : {}) });
  // Calls on one file (any spelling) run one after another, so each sees the state the previous one left.
  const outcome = await underFileLocks(toolset.lockKeys(name, input), () =>
    executeNative(toolset, ledger, name, input, toolCallId, config),
  );
  audit(ledger, call, toolResultEvent(outcome, started, path));
  return outcome;
}

/** The engine's view of a toolset with an approval config. */
function engineToolset(toolset: Toolset, config: ApprovalConfig): EngineToolset {
  return {
    callTool: (n, a, c) => toolset.callTool(n, a, c),
    check: (n, a, c) => toolset.needsApproval(n, a, c, config),
  };
}

/**
 * With a recorded decision, the call runs only as bound (see runBound). Without
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
  const executing = { toolName: name, toolCallId, args: input, sandboxId: toolset.sandbox.identity };
  return runBound(engineToolset(toolset, config), binding, executing, ctx, { chain: ledger.applied });
}

/**
 * Shows one pending call's fresh payload to an ApprovalCallback (unless a
 * remembered decision covers it) and records the decision as a binding of the
 * call: its arguments (a private copy), the files and file states shown and any
 * arguments the user edited. Returns the decision and, for a denial, the text the model sees.
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
    audit(
      ledger,
      { toolName: call.toolName, toolCallId: call.toolCallId },
      { type: 'approval_decided', decision },
    );
    if (result.status === 'pre_approved') return { approved: true };
    return { approved: false, message: `Blocked by policy, not run: ${result.reason}` };
  }
  const who = { toolName: call.toolName, toolCallId: call.toolCallId, sandboxId: toolset.sandbox.identity };
  const request = approvalRequest(who, captured, result, (a, c) =>
    toolset.needsApproval(call.toolName, a, c, config),
  );
  const decision = await askPerson(request, {
    approve,
    memory: memory ?? ledger.memory,
    audit: (event) => audit(ledger, { toolName: call.toolName, toolCallId: call.toolCallId }, event),
  });
  const binding = bindDecision(request, captured, decision);
  ledger.bindings.set(call.toolCallId, binding);
  if (decision.approved) return { approved: true };
  return { approved: false, message: deniedError(binding).message };
}
