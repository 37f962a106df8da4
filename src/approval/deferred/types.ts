import type { ApprovalBinding } from '../approval-binding.js';
import type { ApprovalPayload } from '../payloads.js';

/**
 * One approval asked now and answered later (maybe in another process): what
 * the person is shown (the payload) and the binding execution must match, kept
 * from the moment the request is raised until the approved call runs.
 */
export interface DeferredApprovalRecord {
  v: 1;
  toolCallId: string;
  toolName: string;
  /** The decision as it will hold if the person approves: arguments and file states shown (approved: true). */
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
 * Where deferred approvals wait between the request that asks and the one that
 * executes. Every method is keyed by tool-call id; implementations must make
 * `putIfAbsent` and `take` atomic, so a request re-asking (ai@6/7 re-run
 * needsApproval on resume) never replaces what was shown, and two executions of
 * one call never both get its record.
 */
export interface DeferredApprovalStore {
  /** Stores the record unless one exists for its call id; returns the one that is stored afterwards. */
  putIfAbsent(record: DeferredApprovalRecord): Promise<DeferredApprovalRecord>;
  get(toolCallId: string): Promise<DeferredApprovalRecord | undefined>;
  /** Removes and returns the record (at most one caller gets it). */
  take(toolCallId: string): Promise<DeferredApprovalRecord | undefined>;
  delete(toolCallId: string): Promise<void>;
  /** Removes records whose expiresAt is before `now`. */
  prune(now?: Date): Promise<void>;
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
