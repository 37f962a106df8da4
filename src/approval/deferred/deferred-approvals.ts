import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { CallTargets } from '../../contract/approval-types.js';
import type { ApprovalPayload } from '../../contract/payloads.js';
import type { ToolErrorInfo } from '../../contract/tool-outcome.js';
import { type ApprovalBinding, createBinding } from '../approval-binding.js';
import { captureArguments } from '../call-arguments.js';
import { canonicalJson } from '../canonical-json.js';
import { MemoryDeferredStore } from './memory-store.js';
import {
  type DeferredApprovalRecord,
  type DeferredApprovalStore,
  type DeferredTombstone,
  isTombstone,
} from './types.js';

export interface DeferredApprovalsOptions {
  /** Where records wait between requests; in-memory (one process) by default. */
  store?: DeferredApprovalStore;
  /** HMAC key for records kept where others can write (a shared directory, a database). */
  secret?: string | Uint8Array;
  /** How long an asked approval stays valid (and a settled call id stays tombstoned); 24 hours by default. */
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
  /** The files the payload was computed for (`ApprovalResult#targets`): execution must find the same files. */
  targets?: CallTargets;
}

export type ClaimedApproval =
  | { status: 'missing' }
  | { status: 'bound'; binding: ApprovalBinding; record: DeferredApprovalRecord }
  | { status: 'refused'; error: ToolErrorInfo };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Approvals asked now and executed later, by this process or another. The
 * store is the only authority: what a request showed is recorded (`ask`); the
 * approved call executes — in a later HTTP request with a fresh toolset — only
 * by claiming that record (`claim`), once, and only as bound (same arguments,
 * sandbox and file states, else `stale_approval`). Nothing the browser sends
 * back can stand in for a record. A claimed, denied or expired call id leaves a
 * tombstone, kept 2 × ttl, so it is not recorded or run again; past that, the
 * same id asked again is a new request, shown again.
 *
 * Records are scoped by conversation: `forConversation(chatId)` per request.
 */
export class DeferredApprovals {
  readonly store: DeferredApprovalStore;
  /** The conversation (chat id) this view's call ids belong to; '' for the unscoped view. */
  readonly conversationId: string;
  private readonly secret: string | Uint8Array | undefined;
  private readonly ttlMs: number;
  private readonly now: () => Date;
  /** When the store was last pruned (pruning reads it all: at most once per ttl or minute), shared by views. */
  private readonly pruned: { at: number };
  private readonly settled = new Set<string>();

  constructor(
    options: DeferredApprovalsOptions = {},
    scope?: { conversationId: string; pruned: { at: number } },
  ) {
    this.store = options.store ?? new MemoryDeferredStore();
    this.secret = options.secret;
    this.ttlMs = options.ttlMs ?? DAY_MS;
    this.now = options.now ?? (() => new Date());
    this.conversationId = scope?.conversationId ?? '';
    this.pruned = scope?.pruned ?? { at: Number.NEGATIVE_INFINITY };
  }

  /** The same approvals for one conversation: call ids of other conversations are never seen. */
  forConversation(conversationId: string): DeferredApprovals {
    const options = { store: this.store, ttlMs: this.ttlMs, now: this.now };
    return new DeferredApprovals(this.secret === undefined ? options : { ...options, secret: this.secret }, {
      conversationId,
      pruned: this.pruned,
    });
  }

  private keyOf(toolCallId: string): string {
    return createHash('sha256')
      .update(canonicalJson([this.conversationId, toolCallId]))
      .digest('hex');
  }

  /**
   * Records the request unless its call id has an entry (frameworks ask again on
   * resume, against a file that may have changed: the first showing is the one
   * that counts; a settled call is never asked again). Returns the pending
   * record, or undefined when the call was already claimed, denied or expired.
   */
  async ask(asked: AskedApproval): Promise<DeferredApprovalRecord | undefined> {
    const at = this.now();
    const binding = createBinding({
      toolName: asked.toolName,
      toolCallId: asked.toolCallId,
      ...(asked.sandboxId !== undefined ? { sandboxId: asked.sandboxId } : {}),
      requested: captureArguments(asked.input),
      payload: asked.payload,
      ...(asked.targets !== undefined ? { targets: asked.targets } : {}),
      approved: true,
    });
    const body: DeferredApprovalRecord = {
      v: 1,
      conversationId: this.conversationId,
      toolCallId: asked.toolCallId,
      toolName: asked.toolName,
      binding: { ...binding },
      payload: structuredClone(asked.payload),
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + this.ttlMs).toISOString(),
    };
    if (at.getTime() - this.pruned.at >= Math.min(this.ttlMs, 60_000)) {
      this.pruned.at = at.getTime();
      await this.store.prune(at, this.ttlMs);
    }
    const held = await this.store.putIfAbsent(this.keyOf(asked.toolCallId), this.seal(body));
    return isTombstone(held) || this.problemWith(held, asked.sandboxId) ? undefined : held;
  }

  /** The pending record of a call (what the person is to be shown), if intact, unexpired and of this sandbox. */
  async shown(toolCallId: string, sandboxId?: string): Promise<DeferredApprovalRecord | undefined> {
    const entry = await this.store.get(this.keyOf(toolCallId));
    if (!entry || isTombstone(entry)) return undefined;
    return this.problemWith(entry, sandboxId) === undefined ? entry : undefined;
  }

  /**
   * Takes the record of a call about to execute: only one execution, in any
   * process, gets it; the call id is tombstoned. `missing` when the call was
   * never recorded (it never needed approval: the caller re-checks it now).
   */
  async claim(toolCallId: string, sandboxId?: string): Promise<ClaimedApproval> {
    const key = this.keyOf(toolCallId);
    const entry = await this.store.get(key);
    if (!entry) return { status: 'missing' };
    if (!isTombstone(entry) && sandboxId !== undefined && entry.binding.sandboxId !== sandboxId)
      return blocked(entry.toolName, 'the approval was asked for another sandbox');
    const record = await this.store.settle(key, this.tombstone(toolCallId, 'claimed'));
    if (!record) {
      const why = isTombstone(entry) ? entry.state : 'claimed';
      return blocked(
        isTombstone(entry) ? 'the call' : entry.toolName,
        `its approval was already ${why === 'claimed' ? 'used' : why}`,
      );
    }
    const problem = this.problemWith(record, sandboxId);
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

  /** Settles a call the person denied (or that was abandoned): it can never be approved afterwards. */
  async deny(toolCallId: string): Promise<void> {
    await this.store.settle(this.keyOf(toolCallId), this.tombstone(toolCallId, 'denied'));
  }

  /**
   * Settles every call the history shows as denied (AI SDK model messages'
   * `tool-approval-response` parts, or UI messages' tool parts whose
   * `approval.approved` is false): a denial can never be flipped to an approval
   * by a later request. Call it with each request's incoming messages; the
   * stream helpers and tool hooks call it too.
   */
  async settleDenials(messages: unknown): Promise<void> {
    for (const toolCallId of deniedCallIds(messages)) {
      // Every tool hook of a request passes the same history: each denial is settled once per view.
      if (this.settled.has(toolCallId)) continue;
      await this.deny(toolCallId);
      this.settled.add(toolCallId);
    }
  }

  private tombstone(toolCallId: string, state: DeferredTombstone['state']): DeferredTombstone {
    const at = this.now();
    return {
      v: 1,
      state,
      conversationId: this.conversationId,
      toolCallId,
      at: at.toISOString(),
      // As long as the longest-lived record could still be around, and then some.
      keepUntil: new Date(at.getTime() + 2 * this.ttlMs).toISOString(),
    };
  }

  private problemWith(record: DeferredApprovalRecord, sandboxId: string | undefined): string | undefined {
    if (this.secret !== undefined) {
      const { mac, ...body } = record;
      const expected = this.macOf(body);
      if (typeof mac !== 'string' || !sameText(mac, expected))
        return 'the stored approval record is not signed with this server’s key or was altered';
    }
    if (record.conversationId !== this.conversationId) return 'the approval belongs to another conversation';
    if (sandboxId !== undefined && record.binding.sandboxId !== sandboxId)
      return 'the approval was asked for another sandbox';
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

/** Call ids whose approval the history answers with a denial (model or UI messages). */
function deniedCallIds(messages: unknown): string[] {
  if (!Array.isArray(messages)) return [];
  const parts = messages.flatMap((m: { content?: unknown; parts?: unknown }) => [
    ...(Array.isArray(m?.content) ? (m.content as Array<Record<string, unknown>>) : []),
    ...(Array.isArray(m?.parts) ? (m.parts as Array<Record<string, unknown>>) : []),
  ]);
  const callOf = new Map<unknown, unknown>();
  for (const p of parts)
    if (p?.type === 'tool-approval-request')
      callOf.set(
        p.approvalId,
        p.toolCallId ?? (p.toolCall as { toolCallId?: unknown } | undefined)?.toolCallId,
      );
  const denied = new Set<string>();
  for (const p of parts) {
    const id =
      p?.type === 'tool-approval-response' && p.approved === false
        ? callOf.get(p.approvalId)
        : (p?.approval as { approved?: unknown } | undefined)?.approved === false
          ? p.toolCallId
          : undefined;
    if (typeof id === 'string') denied.add(id);
  }
  return [...denied];
}

function blocked(toolName: string, why: string): ClaimedApproval {
  return {
    status: 'refused',
    error: {
      code: 'approval_blocked',
      message: `${toolName} was not run: ${why}. Nothing was changed. Make the call again to have it approved.`,
    },
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
