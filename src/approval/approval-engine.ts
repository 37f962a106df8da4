import type {
  ApprovalCallback,
  ApprovalDecision,
  ApprovalRequest,
  ApprovalResult,
  CallTargets,
} from '../contract/approval-types.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';
import { withFileLock } from '../fs/file-lock.js';
import {
  type ApprovalBinding,
  type BindingOptions,
  createBinding,
  type ExecutingCall,
  verifyBinding,
} from './approval-binding.js';
import { type ApprovalMemory, rememberedDecision } from './approval-memory.js';
import type { AuditEvent } from './audit-events.js';
import { blockedOutcome } from './blocked-outcome.js';
import { type CallArguments, captureArguments, requestCopy, withPreview } from './call-arguments.js';
import { ApprovalAborted } from './errors.js';
import {
  type AppliedChain,
  batchStale,
  chainKey,
  changedByBatch,
  lineMovesOf,
  rebasedContext,
} from './rebase.js';
import { userEditedOutcome } from './user-edit.js';
import { checkRememberedTargets, rememberScopeOf, validateDecision } from './validate-decision.js';

/**
 * The one path every approved call takes, whatever mode asked the person
 * (blocking, native, deferred, MCP). In order:
 *
 *   1. lock      underFileLocks   every file the call touches (real files, any spelling)
 *   2. request   approvalRequest  the payload and the files it was computed for
 *   3. ask       askPerson        a remembered decision, else the callback
 *   4. bind      bindDecision     arguments, file states and file targets, sealed
 *   5. execute   runBound         verified against the binding; the tool re-resolves
 *                                 every file under its lock and refuses stale_approval
 *                                 if any is not the file approved
 *
 * Blocking mode runs 1–5 in one go; native mode runs 2–4 when the framework asks
 * and 1 + 5 when it executes. Audit events are emitted at each step.
 */

/** What the engine needs of a toolset (FileSystemToolset, McpToolset, or a custom one). */
export interface EngineToolset {
  callTool(name: string, args: unknown, ctx: ToolCallContext): Promise<ToolOutcome>;
  /** The approval the call needs now (the approval config applied). */
  check(name: string, args: unknown, ctx: ToolCallContext): Promise<ApprovalResult>;
}

/** Emits one audit event of the call in progress. */
export type CallAudit = (event: Omit<AuditEvent, 'toolName' | 'timestamp' | 'toolCallId'>) => void;

// 1. lock ---------------------------------------------------------------------------------------

/** Runs `run` holding the lock of every key (sorted: two calls on the same files cannot deadlock). */
export function underFileLocks<T>(keys: readonly string[], run: () => Promise<T>): Promise<T> {
  return [...new Set(keys)]
    .sort()
    .reduceRight<() => Promise<T>>((next, key) => () => withFileLock(`approval\0${key}`, next), run)();
}

// 2. request ------------------------------------------------------------------------------------

/** The request shown for a call that needs approval: its captured arguments, payload and files. */
export function approvalRequest(
  call: { toolName: string; toolCallId?: string; sandboxId?: string },
  captured: CallArguments,
  result: Extract<ApprovalResult, { status: 'needs_approval' }>,
  /** Checks arguments now, as an edited call would run (verbatim): becomes request.previewEdit. */
  check?: (args: unknown, ctx: ToolCallContext) => Promise<ApprovalResult>,
): ApprovalRequest {
  const request: ApprovalRequest = {
    toolName: call.toolName,
    ...(call.toolCallId !== undefined ? { toolCallId: call.toolCallId } : {}),
    ...(call.sandboxId !== undefined ? { sandboxId: call.sandboxId } : {}),
    args: captured.value,
    payload: result.payload,
    description: result.payload.description,
    ...(result.targets ? { targets: result.targets } : {}),
  };
  const preview = check && ((edited: Record<string, unknown>) => previewEdited(check, call, edited));
  return withPreview(request, preview);
}

/** The result of checking a person's edited arguments as they would run. */
async function previewEdited(
  check: (args: unknown, ctx: ToolCallContext) => Promise<ApprovalResult>,
  call: { toolCallId?: string },
  edited: Record<string, unknown>,
): Promise<ApprovalResult> {
  let args: CallArguments;
  try {
    args = captureArguments(edited);
  } catch (error) {
    const message = `The edited arguments are not plain JSON data (${error instanceof Error ? error.message : String(error)}).`;
    return { status: 'blocked', reason: message, error: { code: 'invalid_argument', message } };
  }
  return check(args.value, {
    ...(call.toolCallId !== undefined ? { toolCallId: call.toolCallId } : {}),
    verbatim: true,
  });
}

// 3. ask ----------------------------------------------------------------------------------------

export interface AskOptions {
  approve: ApprovalCallback;
  memory: ApprovalMemory;
  audit: CallAudit;
  /** Runs the prompt (e.g. one at a time); memory is looked up again inside. */
  serialize?: <T>(prompt: () => Promise<T>) => Promise<T>;
  /** Called just before the callback; may throw (a run the user already quit). */
  beforePrompt?: () => void;
  /** The callback threw ApprovalAborted. */
  onAborted?: () => void;
}

/** A remembered decision for the request, else the callback's (remembered at the scope the user picked). */
export async function askPerson(request: ApprovalRequest, o: AskOptions): Promise<ApprovalDecision> {
  const where = { path: request.payload.path, payloadType: request.payload.type };
  const remembered = (): ApprovalDecision | undefined => {
    const hit = o.memory.lookup(request);
    if (!hit) return undefined;
    o.audit({ type: 'approval_decided', ...where, decision: 'remembered' });
    return rememberedDecision(hit);
  };
  const early = remembered();
  if (early) return early;
  const serialize = o.serialize ?? (<T>(prompt: () => Promise<T>) => prompt());
  return serialize(async () => {
    try {
      o.beforePrompt?.();
    } catch (error) {
      if (error instanceof ApprovalAborted)
        o.audit({ type: 'approval_decided', ...where, decision: 'aborted' });
      throw error;
    }
    const late = remembered();
    if (late) return late;
    o.audit({ type: 'approval_requested', ...where });
    let decision: ApprovalDecision;
    try {
      // The callback gets its own copies: whatever it does to them, what runs (and what is remembered) is the captured call.
      decision = validateDecision(await o.approve(requestCopy(request)));
      await checkRememberedTargets(request, decision);
    } catch (error) {
      if (error instanceof ApprovalAborted) {
        o.onAborted?.();
        o.audit({ type: 'approval_decided', ...where, decision: 'aborted' });
      }
      throw error;
    }
    const scope = rememberScopeOf(decision);
    if (scope) o.memory.remember(request, scope, decision.approved, decision.note);
    o.audit({
      type: 'approval_decided',
      ...where,
      decision: decision.approved ? 'approved' : 'denied',
      ...(decision.note ? { note: decision.note } : {}),
      ...(scope ? { remember: scope } : {}),
    });
    return decision;
  });
}

// 4. bind ---------------------------------------------------------------------------------------

/** Records the decision about a request: what runs, bound to what the person was shown. */
export function bindDecision(
  request: ApprovalRequest,
  captured: CallArguments,
  decision: ApprovalDecision,
  options: BindingOptions = {},
): Readonly<ApprovalBinding> {
  return createBinding(
    {
      toolName: request.toolName,
      ...(request.toolCallId !== undefined ? { toolCallId: request.toolCallId } : {}),
      ...(request.sandboxId !== undefined ? { sandboxId: request.sandboxId } : {}),
      requested: captured,
      payload: request.payload,
      approved: decision.approved,
      ...(decision.note !== undefined ? { note: decision.note } : {}),
      ...(decision.decidedBy ? { decidedBy: decision.decidedBy } : {}),
      ...(decision.approved && decision.overrideArgs
        ? { edited: captureArguments(decision.overrideArgs) }
        : {}),
      ...(request.targets ? { targets: request.targets } : {}),
    },
    options,
  );
}

// 5. execute ------------------------------------------------------------------------------------

export interface RunBoundOptions extends BindingOptions {
  /** File states produced by approved calls: with it, an edit shown on an older state may be rebased (see rebase.ts). */
  chain?: AppliedChain;
  /** States to bind instead of the recorded ones (a rebase decided by the caller). */
  rebased?: ToolCallContext;
}

/**
 * Runs a call under its recorded decision: the call must match the binding (else
 * stale_approval; a denial stays approval_denied); the arguments that run are the
 * binding's own copy (the person's edited version re-checked first: a block still
 * wins, and their text is applied verbatim); the tool must find the files and
 * file states the person was shown.
 */
export async function runBound(
  toolset: EngineToolset,
  binding: ApprovalBinding,
  call: ExecutingCall,
  ctx: ToolCallContext = {},
  options: RunBoundOptions = {},
): Promise<ToolOutcome> {
  const checked = verifyBinding(binding, call, options);
  if (!checked.ok) return { ok: false, error: checked.error };
  const args = checked.args.value;
  let context: ToolCallContext = { ...ctx, ...checked.context, ...options.rebased };
  if (options.chain && !checked.edited) {
    const rebased = await rebaseOnto(toolset, binding, call, ctx, options.chain);
    if (rebased) context = { ...context, ...rebased.context };
    const batched = changedByBatch(options.chain, binding);
    const outcome = await toolset.callTool(call.toolName, args, context);
    recordStep(options.chain, binding, outcome, rebased);
    return batched ? batchStale(outcome, binding.shownPath, false) : outcome;
  }
  if (!checked.edited) return toolset.callTool(call.toolName, args, context);
  // The person's own version: checked again (a block still wins), applied exactly as they wrote it.
  const verbatim = { ...ctx, verbatim: true };
  const recheck = await toolset.check(call.toolName, args, verbatim);
  if (recheck.status === 'blocked') return blockedOutcome(recheck, "The user's edited call is blocked");
  const targets = recheck.status === 'needs_approval' ? editedTargets(binding, recheck.targets) : undefined;
  const outcome = await toolset.callTool(call.toolName, args, {
    ...context,
    verbatim: true,
    ...(targets ? { approvedTargets: targets } : {}),
  });
  const batched = options.chain !== undefined && changedByBatch(options.chain, binding);
  return userEditedOutcome(
    batched ? batchStale(outcome, binding.shownPath, true) : outcome,
    JSON.parse(binding.requestedArgs),
    args as Record<string, unknown>,
    binding.note,
  );
}

/** An edited call keeps the approved target of every file it still names; a file it now names instead is taken as resolved now. */
function editedTargets(binding: ApprovalBinding, now: CallTargets | undefined): CallTargets | undefined {
  if (!now) return binding.targets;
  const pick = (role: keyof CallTargets) => {
    const shown = binding.targets?.[role];
    const current = now[role];
    return shown && current && shown.name === current.name ? shown : current;
  };
  const path = pick('path');
  const destination = pick('destination');
  return { ...(path ? { path } : {}), ...(destination ? { destination } : {}) };
}

/** The state an approved edit may move onto when only approved calls changed its file since it was shown. */
async function rebaseOnto(
  toolset: EngineToolset,
  binding: ApprovalBinding,
  call: ExecutingCall,
  ctx: ToolCallContext,
  chain: AppliedChain,
): Promise<{ context: ToolCallContext; diff: string | undefined } | undefined> {
  // Asked without reading it: a diff written when first read is written only if a rebase compares it.
  if (!binding.approved || !('shownDiff' in binding) || typeof binding.baseSha256 !== 'string')
    return undefined;
  const now = await toolset.check(call.toolName, call.args, ctx);
  if (now.status !== 'needs_approval' || now.payload.baseSha256 === binding.baseSha256) return undefined;
  const context = rebasedContext(binding, now, chain);
  return context ? { context, diff: (now.payload as { unifiedDiff?: string }).unifiedDiff } : undefined;
}

/** Records the state an approved call produced, per file (its slot), so a later approved edit may rebase onto it. */
function recordStep(
  chain: AppliedChain,
  binding: ApprovalBinding,
  outcome: ToolOutcome,
  rebased: { context: ToolCallContext; diff: string | undefined } | undefined,
): void {
  const before = rebased?.context.approvedBaseSha256 ?? binding.baseSha256;
  const after = outcome.ok ? (outcome.data as { sha256?: unknown } | null)?.sha256 : undefined;
  if (typeof after !== 'string' || typeof before !== 'string' || after === before) return;
  const diff = rebased ? rebased.diff : binding.shownDiff;
  chain.set(chainKey(binding, after), { before, moves: lineMovesOf(diff) });
}
