import type { ApprovalCallback, ApprovalConfig, ApprovalResult } from '../contract/approval-types.js';
import type { ChangeRecord } from '../contract/change-record.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';
import { AbortEpoch } from './abort-epoch.js';
import {
  approvalRequest,
  askPerson,
  bindDecision,
  type CallAudit,
  runBound,
  underFileLocks,
} from './approval-engine.js';
import { ApprovalMemory } from './approval-memory.js';
import { type AuditEvent, type AuditSink, fanOut, toolResultEvent } from './audit-events.js';
import { blockedOutcome } from './blocked-outcome.js';
import { type CallArguments, captureArguments } from './call-arguments.js';
import { describeCall, genericPayload, needsApprovalFromConfig } from './config.js';
import { pathKeys } from './path-keys.js';
import { SerialQueue } from './serial-queue.js';

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
  /** Requests already waiting when the user quits are aborted too, never shown. */
  private readonly aborts = new AbortEpoch();

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
   * Runs a call through approval (the engine's steps 1–5, see approval-engine.ts).
   * Expected failures come back as `{ ok: false }`; ApprovalAborted is thrown.
   * Calls on the same file (whatever the spelling of its path, symlinks resolved)
   * go through check → approve → execute one after another, so each payload (and
   * each approval) is computed on the file as the previous call left it.
   */
  async callTool(name: string, args: unknown, ctx: ToolCallContext = {}): Promise<ToolOutcome> {
    let captured: CallArguments;
    try {
      captured = captureArguments(args);
    } catch (error) {
      return unreadableArguments(name, error);
    }
    const keys = this.inner.lockKeys?.(name, captured.value) ?? pathKeys(captured.value);
    const aborts = this.aborts.ticket();
    return underFileLocks(keys, () => this.callLocked(name, captured, ctx, aborts));
  }

  private async callLocked(
    name: string,
    captured: CallArguments,
    ctx: ToolCallContext,
    abortsAtCall: number,
  ): Promise<ToolOutcome> {
    const args = captured.value;
    const started = performance.now();
    const base = { toolName: name, ...(ctx.toolCallId ? { toolCallId: ctx.toolCallId } : {}) };
    const audit: CallAudit = (e) => this.emit({ ...base, ...e, timestamp: new Date().toISOString() });
    const finish = (outcome: ToolOutcome, path?: string): ToolOutcome => {
      audit(toolResultEvent(outcome, started, path));
      return outcome;
    };
    const argPath =
      typeof (args as { path?: unknown } | null)?.path === 'string'
        ? (args as { path: string }).path
        : undefined;
    const at = argPath ? { path: argPath } : {};
    audit({ type: 'tool_call', ...at });

    const result = await this.check(name, args, ctx);
    if (result.status === 'blocked') {
      audit({ type: 'approval_decided', decision: 'blocked', ...at });
      return finish(blockedOutcome(result), argPath);
    }
    if (result.status === 'pre_approved') {
      audit({ type: 'approval_decided', decision: 'pre_approved', ...at });
      return finish(await this.inner.callTool(name, args, ctx), argPath);
    }
    const sandboxId = this.inner.sandbox?.identity;
    const call = { ...base, ...(sandboxId ? { sandboxId } : {}) };
    const request = approvalRequest(call, captured, result, (a, c) => this.check(name, a, { ...ctx, ...c }));
    const decision = await askPerson(request, {
      approve: this.approve,
      memory: this.memory,
      audit,
      serialize: (prompt) => this.queue.run(prompt),
      // The user quit while this call waited: the run is over, do not show it.
      beforePrompt: () => this.aborts.throwIfAbortedSince(abortsAtCall),
      onAborted: () => this.aborts.aborted(),
    });
    const binding = bindDecision(request, captured, decision);
    const runner = {
      callTool: (n: string, a: unknown, c: ToolCallContext) => this.inner.callTool(n, a, c),
      check: (n: string, a: unknown, c: ToolCallContext) => this.check(n, a, c),
    };
    return finish(await runBound(runner, binding, { ...call, args }, ctx), result.payload.path);
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
