import type { ApprovalPayload } from '../../contract/payloads.js';
import type { ApprovalBinding } from '../approval-binding.js';

/**
 * One approval asked now and answered later (maybe in another process): what
 * the person is shown (the payload) and the binding execution must match, kept
 * from the moment the request is raised until the approved call runs.
 */
export interface DeferredApprovalRecord {
  v: 1;
  /** The conversation (chat id) the call belongs to; '' when the caller scoped none. */
  conversationId: string;
  toolCallId: string;
  toolName: string;
  /** The decision as it will hold if the person approves: arguments, sandbox and file states shown. */
  binding: ApprovalBinding;
  /** The typed payload the person is shown (what the browser renders). */
  payload: ApprovalPayload;
  createdAt: string;
  /** After this instant the record no longer authorises anything. */
  expiresAt: string;
  /** HMAC-SHA256 of the rest of the record, when the store is given a secret. */
  mac?: string;
}

/**
 * What is left of a call once it was claimed for execution, denied or expired:
 * its call id can never be recorded or authorised again while this is kept.
 */
export interface DeferredTombstone {
  v: 1;
  state: 'claimed' | 'denied' | 'expired';
  conversationId: string;
  toolCallId: string;
  at: string;
  /** Kept until this instant (at least as long as a record would have lived). */
  keepUntil: string;
}

export type DeferredEntry = DeferredApprovalRecord | DeferredTombstone;

export function isTombstone(entry: DeferredEntry): entry is DeferredTombstone {
  return 'state' in entry;
}

/**
 * Where deferred approvals wait between the request that asks and the one that
 * executes. Keys are opaque (a hash of conversation and call id, computed by
 * DeferredApprovals). Every method must be atomic per key across every process
 * sharing the store: a request re-asking never replaces what was shown or a
 * tombstone, and of N executions of one call at most one gets its record.
 */
export interface DeferredApprovalStore {
  /** Stores the record unless the key has an entry (record or tombstone); returns the entry held afterwards. */
  putIfAbsent(key: string, record: DeferredApprovalRecord): Promise<DeferredEntry>;
  get(key: string): Promise<DeferredEntry | undefined>;
  /**
   * Puts the tombstone in place of the key's record and returns that record (at
   * most one caller gets it). An existing tombstone is kept (its keepUntil moved to the
   * new one's when that is later); with no entry the tombstone is written and undefined
   * returned.
   */
  settle(key: string, tombstone: DeferredTombstone): Promise<DeferredApprovalRecord | undefined>;
  /** Records expired before `now` become `expired` tombstones kept `keepMs`; tombstones past keepUntil go. */
  prune(now: Date, keepMs: number): Promise<void>;
}

/** What a UI needs to show one pending approval (the `data-sandbox-approval` part of an AI SDK message). */
export interface SandboxApprovalData {
  /** The tool call this payload belongs to (the tool part's `toolCallId`). */
  toolCallId: string;
  toolName: string;
  /** The framework's approval id (the AI SDK tool part's `approval.id`). */
  approvalId: string;
  payload: ApprovalPayload;
  /** The approval is refused as stale_approval after this instant. */
  expiresAt: string;
}
