import { withFileLock } from '../fs/file-lock.js';
import type { ChangeRecord } from '../tools/change-journal.js';
import type { ToolCallContext, ToolOutcome } from '../tools/types.js';
import { createBinding } from './approval-binding.js';
import { ApprovalMemory, rememberedDecision } from './approval-memory.js';
import {
  type AuditDecision,
  type AuditEvent,
  type AuditSink,
  fanOut,
  toolResultEvent,
} from './audit-events.js';
import { blockedOutcome } from './blocked-outcome.js';
import { type CallArguments, captureArguments, requestCopy } from './call-arguments.js';
import { type ApprovalConfig, describeCall, genericPayload, needsApprovalFromConfig } from './config.js';
import { ApprovalAborted } from './errors.js';
import { executeBound } from './execute-bound.js';
import { SerialQueue } from './serial-queue.js';
import type { ApprovalCallback, ApprovalDecision, ApprovalRequest, ApprovalResult } from './types.js';
import { rememberScopeOf, validateDecision } from './validate-decision.js';

/** What ApprovalToolset needs of the toolset it wraps (FileSystemToolset, or any custom one). */
export interface InnerToolset {
  callTool(name: string, args: unknown, ctx?: ToolCallContext): Promise<ToolOutcome>;
  /** Optional: the toolset decides (it receives the config). Without it, only the config decides. */
  needsApproval?(
    name: string,
    args: unknown,
    ctx?: ToolCallContext,
    config?: ApprovalConfig,
  ): Promise<ApprovalResult>;
  describeCall?(name: string, args: unknown): string;
  history?(): ChangeRecord[];
  undo?(): Promise<ToolOutcome>;
  /** The sandbox the calls run in: decisions are remembered and bound per sandbox identity. */
  readonly sandbox?: { readonly identity: string };
  /** Keys of the files a call touches (real files, so every spelling of one path shares a key). */
  lockKeys?(name: string, args: unknown): string[];
}

export interface ApprovalToolsetOptions {
  approve: ApprovalCallback;
  config?: ApprovalConfig;
  memory?: ApprovalMemory;
  onEvent?: AuditSink;
}

/**
 * The blocking approval layer (port of pydantic-ai-blocking-approval): every call
 * is checked (blocked / pre-approved / needs approval); calls that need approval
 * are shown to the callback one at a time, and an approved call runs bound to the
 * file state the user was shown.
 */
export class ApprovalToolset<T extends InnerToolset = InnerToolset> {
  readonly inner: T;
  readonly memory: ApprovalMemory;
  private readonly approve: ApprovalCallback;
  private readonly config: ApprovalConfig;
  private readonly emit: AuditSink;
  private readonly queue = new SerialQueue();
  /** Bumped when the user quits: requests already waiting then are aborted too, never shown. */
  private aborts = 0;

  constructor(inner: T, options: ApprovalToolsetOptions) {
    if (typeof options?.approve !== 'function')
      throw new TypeError('ApprovalToolset needs an `approve` callback.');
    this.inner = inner;
    this.approve = options.approve;
    this.config = options.config ?? {};
    this.memory = options.memory ?? new ApprovalMemory();
    this.emit = fanOut(options.onEvent);
  }

  /** The approval a call needs, without running it. */
  async check(name: string, args: unknown, ctx: ToolCallContext = {}): Promise<ApprovalResult> {
    if (this.inner.needsApproval) return this.inner.needsApproval(name, args, ctx, this.config);
    const description = this.inner.describeCall?.(name, args) ?? describeCall(name, args);
    const result = needsApprovalFromConfig(name, this.config, args);
    return result.status === 'needs_approval'
      ? { ...result, payload: genericPayload(name, args, description) }
      : result;
  }

  /**
   * Runs a call through approval. Expected failures come back as `{ ok: false }`;
   * ApprovalAborted is thrown. Calls on the same file (whatever the spelling of
   * its path, symlinks resolved) go through check → approve → execute one after
   * another, so each payload (and each approval) is computed on the file as the
   * previous call left it: parallel edits of one file all apply.
   */
  async callTool(name: string, args: unknown, ctx: ToolCallContext = {}): Promise<ToolOutcome> {
    let captured: CallArguments;
    try {
      captured = captureArguments(args);
    } catch (error) {
      return unreadableArguments(name, error);
    }
    const keys = this.inner.lockKeys?.(name, captured.value) ?? pathKeys(captured.value);
    const aborts = this.aborts;
    const run = () => this.callUnlocked(name, captured, ctx, aborts);
    return keys.reduceRight<() => Promise<ToolOutcome>>(
      (next, key) => () => withFileLock(`approval\0${key}`, next),
      run,
    )();
  }

  private async callUnlocked(
    name: string,
    captured: CallArguments,
    ctx: ToolCallContext,
    abortsAtCall: number,
  ): Promise<ToolOutcome> {
    const args = captured.value;
    const started = performance.now();
    const base = { toolName: name, ...(ctx.toolCallId ? { toolCallId: ctx.toolCallId } : {}) };
    const event = (e: Omit<AuditEvent, 'toolName' | 'timestamp'>) =>
      this.emit({ ...base, ...e, timestamp: new Date().toISOString() });
    const finish = (outcome: ToolOutcome, path?: string): ToolOutcome => {
      event(toolResultEvent(outcome, started, path));
      return outcome;
    };
    const argPath =
      typeof (args as { path?: unknown } | null)?.path === 'string'
        ? (args as { path: string }).path
        : undefined;
    event({ type: 'tool_call', ...(argPath ? { path: argPath } : {}) });

    const result = await this.check(name, args, ctx);
    if (result.status === 'blocked') {
      event({ type: 'approval_decided', decision: 'blocked', ...(argPath ? { path: argPath } : {}) });
      return finish(blockedOutcome(result), argPath);
    }
    if (result.status === 'pre_approved') {
      event({ type: 'approval_decided', decision: 'pre_approved', ...(argPath ? { path: argPath } : {}) });
      return finish(await this.inner.callTool(name, args, ctx), argPath);
    }

    const payload = result.payload;
    const sandboxId = this.inner.sandbox?.identity;
    const request: ApprovalRequest = {
      ...base,
      ...(sandboxId ? { sandboxId } : {}),
      args,
      payload,
      description: payload.description,
    };
    const where = { path: payload.path, payloadType: payload.type };
    const decided = await this.decide(
      request,
      abortsAtCall,
      (decision, how, remember) =>
        event({
          type: 'approval_decided',
          ...where,
          decision: how,
          ...(decision.note ? { note: decision.note } : {}),
          ...(remember ? { remember } : {}),
        }),
      () => event({ type: 'approval_requested', ...where }),
    );
    const binding = createBinding({
      toolName: name,
      ...(ctx.toolCallId ? { toolCallId: ctx.toolCallId } : {}),
      ...(sandboxId ? { sandboxId } : {}),
      requested: captured,
      payload,
      approved: decided.approved,
      ...(decided.note !== undefined ? { note: decided.note } : {}),
      ...(decided.approved && decided.overrideArgs ? { edited: captureArguments(decided.overrideArgs) } : {}),
    });
    const runner = { callTool: this.inner.callTool.bind(this.inner), check: this.check.bind(this) };
    const call = { ...base, args, ...(sandboxId ? { sandboxId } : {}) };
    return finish(await executeBound(runner, binding, call, ctx), payload.path);
  }

  /** The changes applied through the inner toolset (its change journal), oldest first. */
  history(): ChangeRecord[] {
    return this.inner.history?.() ?? [];
  }

  /** Restores the last change (the user's action, not the model's: no prompt), audited as `undo`. */
  async undo(): Promise<ToolOutcome> {
    const started = performance.now();
    const event = (e: Omit<AuditEvent, 'toolName' | 'timestamp'>) =>
      this.emit({ toolName: 'undo', ...e, timestamp: new Date().toISOString() });
    const last = this.history().at(-1);
    const path = last?.path;
    event({ type: 'tool_call', ...(path ? { path } : {}) });
    const outcome: ToolOutcome = this.inner.undo
      ? await this.inner.undo()
      : { ok: false, error: { code: 'invalid_argument', message: 'This toolset keeps no change history.' } };
    event(toolResultEvent(outcome, started, path));
    return outcome;
  }

  /** Memory first; otherwise the callback, one request at a time (memory re-checked after waiting). */
  private async decide(
    request: ApprovalRequest,
    abortsAtCall: number,
    onDecided: (d: ApprovalDecision, how: AuditDecision, remember?: string) => void,
    onRequested: () => void,
  ): Promise<ApprovalDecision> {
    const remembered = (): ApprovalDecision | undefined => {
      const hit = this.memory.lookup(request);
      if (!hit) return undefined;
      const decision = rememberedDecision(hit);
      onDecided(decision, 'remembered');
      return decision;
    };
    const early = remembered();
    if (early) return early;
    return this.queue.run(async () => {
      if (this.aborts !== abortsAtCall) {
        // The user quit while this call waited: the run is over, do not show it.
        onDecided({ approved: false }, 'aborted');
        throw new ApprovalAborted('The run was aborted at an earlier approval prompt.');
      }
      const late = remembered();
      if (late) return late;
      onRequested();
      let decision: ApprovalDecision;
      try {
        // The callback gets its own copies: whatever it does to them, what runs (and what is remembered) is the captured call.
        decision = validateDecision(await this.approve(requestCopy(request)));
      } catch (error) {
        if (error instanceof ApprovalAborted) {
          this.aborts++;
          onDecided({ approved: false }, 'aborted');
        }
        throw error;
      }
      const scope = rememberScopeOf(decision);
      if (scope) this.memory.remember(request, scope, decision.approved, decision.note);
      onDecided(decision, decision.approved ? 'approved' : 'denied', scope);
      return decision;
    });
  }
}

/** The virtual paths a call names (path, source, destination), sorted so two calls lock in the same order. */
function pathKeys(args: unknown): string[] {
  if (args === null || typeof args !== 'object') return [];
  const a = args as Record<string, unknown>;
  const keys = [a.path, a.file_path, a.source, a.destination].filter(
    (v): v is string => typeof v === 'string',
  );
  return [...new Set(keys.map((k) => k.trim()))].sort();
}

/** Arguments that cannot be read as JSON data (a cycle, a BigInt, a throwing getter). */
function unreadableArguments(name: string, error: unknown): ToolOutcome {
  const why = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    error: {
      code: 'invalid_argument',
      message: `The arguments of ${name} are not plain JSON data (${why}).`,
    },
  };
}
