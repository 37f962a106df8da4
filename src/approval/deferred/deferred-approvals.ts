import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ToolErrorInfo } from '../../tools/types.js';
import { type ApprovalBinding, createBinding } from '../approval-binding.js';
import { captureArguments } from '../call-arguments.js';
import { canonicalJson } from '../canonical-json.js';
import type { ApprovalPayload } from '../payloads.js';
import { MemoryDeferredStore } from './memory-store.js';
import type { DeferredApprovalRecord, DeferredApprovalStore, SandboxApprovalData } from './types.js';

export interface DeferredApprovalsOptions {
  /** Where records wait between requests; in-memory (one process) by default. */
  store?: DeferredApprovalStore;
  /** HMAC key for records kept where others can write (a shared directory, a database). */
  secret?: string | Uint8Array;
  /** How long an asked approval stays valid; 24 hours by default. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => Date;
}

/** A request as it is raised: the call and the payload computed for it. */
export interface AskedApproval {
  toolName: string;
  toolCallId: string;
  sandboxId?: string;
  input: unknown;
  payload: ApprovalPayload;
}

/** Messages as a UI keeps them (AI SDK UIMessage-shaped): their parts may carry `data-sandbox-approval`. */
export type UIHistory = ReadonlyArray<{ parts?: ReadonlyArray<{ type: string }> }>;

export type ClaimedApproval =
  | { status: 'missing' }
  | { status: 'bound'; binding: ApprovalBinding; record: DeferredApprovalRecord }
  | { status: 'refused'; error: ToolErrorInfo };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Approvals asked now and executed later, by this process or another: when a
 * request needs approval, what the person is shown is recorded (`ask`); when the
 * approved call executes — in a later HTTP request with a fresh toolset — the
 * record is claimed once (`claim`) and execution runs only as bound: same
 * arguments, same file states, else `stale_approval` with nothing changed.
 */
export class DeferredApprovals {
  readonly store: DeferredApprovalStore;
  private readonly secret: string | Uint8Array | undefined;
  private readonly ttlMs: number;
  private readonly now: () => Date;
  /** When records were last pruned (pruning reads the whole store: at most once per ttl or minute). */
  private pruned = { at: Number.NEGATIVE_INFINITY };
  /** What this request's message history says the person was shown, by call id (see withHistory). */
  private readonly shownInHistory = new Map<string, SandboxApprovalData>();

  constructor(options: DeferredApprovalsOptions = {}) {
    this.store = options.store ?? new MemoryDeferredStore();
    this.secret = options.secret;
    this.ttlMs = options.ttlMs ?? DAY_MS;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * The same approvals for one request, knowing what its message history says
   * was shown (the `data-sandbox-approval` parts the browser sends back). Used
   * only when the store has no record of a call (another server, a lost or
   * expired store): the call is then re-checked against what was shown.
   */
  withHistory(messages: UIHistory): DeferredApprovals {
    const scoped = Object.create(this) as DeferredApprovals;
    const shown = new Map<string, SandboxApprovalData>();
    for (const m of messages)
      for (const p of m.parts ?? [])
        if (p.type === 'data-sandbox-approval') {
          const data = (p as unknown as { data?: SandboxApprovalData }).data;
          if (data && typeof data.toolCallId === 'string' && data.payload) shown.set(data.toolCallId, data);
        }
    Object.defineProperty(scoped, 'shownInHistory', { value: shown });
    return scoped;
  }

  /**
   * Records the request unless its call id is already recorded (frameworks ask
   * again on resume, against a file that may have changed: the first showing
   * is the one that counts). Returns the record that holds.
   */
  async ask(asked: AskedApproval): Promise<DeferredApprovalRecord> {
    const known = await this.shown(asked.toolCallId);
    if (known) return known;
    const at = this.now();
    const binding = createBinding({
      toolName: asked.toolName,
      toolCallId: asked.toolCallId,
      ...(asked.sandboxId !== undefined ? { sandboxId: asked.sandboxId } : {}),
      requested: captureArguments(asked.input),
      payload: asked.payload,
      approved: true,
    });
    const body: DeferredApprovalRecord = {
      v: 1,
      toolCallId: asked.toolCallId,
      toolName: asked.toolName,
      binding: { ...binding },
      payload: structuredClone(asked.payload),
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + this.ttlMs).toISOString(),
    };
    if (at.getTime() - this.pruned.at >= Math.min(this.ttlMs, 60_000)) {
      this.pruned.at = at.getTime();
      await this.store.prune(at);
    }
    return this.store.putIfAbsent(this.seal(body));
  }

  /** The record of a pending request (what the person is to be shown), if intact and not expired. */
  async shown(toolCallId: string): Promise<DeferredApprovalRecord | undefined> {
    const record = await this.store.get(toolCallId);
    return record && this.problemWith(record) === undefined ? record : undefined;
  }

  /**
   * Takes the record of a call about to execute (only one execution gets it).
   * With no record but a payload in the history, `recheck` computes the call's
   * request as it would be shown now: it runs only if that is exactly what was
   * shown (same file states, same diff), else stale_approval.
   */
  async claim(
    toolCallId: string,
    recheck?: () => Promise<AskedApproval | undefined>,
  ): Promise<ClaimedApproval> {
    const record = await this.store.take(toolCallId);
    if (!record) return this.recheckAgainstHistory(toolCallId, recheck);
    const problem = this.problemWith(record);
    if (problem)
      return {
        status: 'refused',
        error: {
          code: 'stale_approval',
          message: `${record.toolName} was not run: ${problem}. Nothing was changed. Make the call again to have it approved as it is.`,
        },
      };
    return { status: 'bound', binding: record.binding, record };
  }

  private async recheckAgainstHistory(
    toolCallId: string,
    recheck: (() => Promise<AskedApproval | undefined>) | undefined,
  ): Promise<ClaimedApproval> {
    const shown = this.shownInHistory.get(toolCallId);
    if (!shown || !recheck) return { status: 'missing' };
    const now = await recheck();
    // No approval needed now (or blocked): the caller's own rules decide, as for any unrecorded call.
    if (!now) return { status: 'missing' };
    if (now.toolName !== shown.toolName || canonicalJson(now.payload) !== canonicalJson(shown.payload))
      return {
        status: 'refused',
        error: {
          code: 'stale_approval',
          message: `${now.toolName} was not run: what it would do now differs from what the user was shown and approved (the file changed, or the call is not the one shown). Nothing was changed. Make the call again to have it approved as it is.`,
        },
      };
    const binding = createBinding({
      toolName: now.toolName,
      toolCallId,
      ...(now.sandboxId !== undefined ? { sandboxId: now.sandboxId } : {}),
      requested: captureArguments(now.input),
      payload: now.payload,
      approved: true,
    });
    const at = this.now();
    const record: DeferredApprovalRecord = {
      v: 1,
      toolCallId,
      toolName: now.toolName,
      binding: { ...binding },
      payload: now.payload,
      createdAt: at.toISOString(),
      expiresAt: at.toISOString(),
    };
    return { status: 'bound', binding, record };
  }

  /** Drops a request that was denied or abandoned. */
  async forget(toolCallId: string): Promise<void> {
    await this.store.delete(toolCallId);
  }

  private problemWith(record: DeferredApprovalRecord): string | undefined {
    if (this.secret !== undefined) {
      const { mac, ...body } = record;
      const expected = this.macOf(body);
      if (typeof mac !== 'string' || !sameText(mac, expected))
        return 'the stored approval record is not signed with this server’s key or was altered';
    }
    if (!(Date.parse(record.expiresAt) >= this.now().getTime()))
      return `the approval expired at ${record.expiresAt}`;
    return undefined;
  }

  private seal(body: DeferredApprovalRecord): DeferredApprovalRecord {
    return this.secret === undefined ? body : { ...body, mac: this.macOf(body) };
  }

  private macOf(body: Omit<DeferredApprovalRecord, 'mac'>): string {
    return createHmac('sha256', this.secret ?? '')
      .update(canonicalJson(body))
      .digest('hex');
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
