import type { ErrorCode } from './errors.js';
import type { FileTarget } from './file-target.js';
import type { ApprovalPayload } from './payloads.js';

/**
 * Why a call cannot go ahead. Without `error` it is a policy block (outside the
 * sandbox, read-only, …) reported as `approval_blocked`; with `error` the tool
 * already knows the call would fail (e.g. `edit_not_found`) and that error is
 * returned as is, so nothing is shown to the user and nothing changes on disk.
 */
export interface BlockedError {
  code: ErrorCode;
  message: string;
  suggestions?: string[];
  details?: Record<string, unknown>;
}

/**
 * The files a call touches, as resolved when its payload was built (`path`: the
 * file or source, `destination`: a move's or copy's). An approval binds to them:
 * execution re-resolves and refuses with stale_approval if any differs.
 */
export interface CallTargets {
  path?: FileTarget;
  destination?: FileTarget;
}

/** What a tool says about a call before it runs. */
export type ApprovalResult =
  | { status: 'blocked'; reason: string; error?: BlockedError }
  | { status: 'pre_approved' }
  | { status: 'needs_approval'; payload: ApprovalPayload; targets?: CallTargets };

export const ApprovalResult = {
  blocked: (reason: string, error?: BlockedError): ApprovalResult =>
    error ? { status: 'blocked', reason, error } : { status: 'blocked', reason },
  preApproved: (): ApprovalResult => ({ status: 'pre_approved' }),
  needsApproval: (payload: ApprovalPayload, targets?: CallTargets): ApprovalResult =>
    targets ? { status: 'needs_approval', payload, targets } : { status: 'needs_approval', payload },
} as const;

/** Per-tool approval configuration, by tool name: `{ read_file: { preApproved: true } }`. */
export type ApprovalConfig = Record<string, { preApproved?: boolean } | undefined>;

export type RememberScopeName = 'call' | 'file' | 'mount' | 'tool';
export interface RememberScope {
  scope: RememberScopeName;
}

export interface ApprovalRequest {
  toolName: string;
  toolCallId?: string;
  /** Identity of the sandbox the call runs in (Sandbox#identity): remembered decisions are kept per sandbox. */
  sandboxId?: string;
  args: unknown;
  payload: ApprovalPayload;
  description: string;
  /** The files the call really touches (links resolved, identities): remembered decisions key on them. */
  targets?: CallTargets;
  /**
   * The request as it would be with the person's edited arguments, computed on
   * the file now and the way they would run (verbatim): its payload's diff is
   * what approving `overrideArgs` writes, so a UI can confirm the resulting
   * change of the file rather than of the argument. Not enumerable (not data).
   */
  previewEdit?: (overrideArgs: Record<string, unknown>) => Promise<ApprovalResult>;
}

export interface ApprovalDecision {
  approved: boolean;
  /** For a denial: what the model should do differently. For an approval: a remark passed along. */
  note?: string;
  /**
   * Who decided: 'user' (the default) or 'system' — a refusal nobody saw, such as
   * a policy or a terminal UI with no terminal. The model is told which it was.
   */
  decidedBy?: 'user' | 'system';
  /** 'session' means the exact call ({ scope: 'call' }). Denials are remembered only if asked. */
  remember?: 'none' | 'session' | RememberScope;
  /**
   * Arguments the user edited before approving (e.g. in $EDITOR). The approval
   * layer re-checks them, applies THEM, and tells the model what the user changed.
   */
  overrideArgs?: Record<string, unknown>;
}

export type ApprovalCallback = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/** One remembered approval (or denial), as listed to the user. */
export interface RememberedApproval {
  id: string;
  scope: RememberScopeName;
  toolName: string;
  /** Human-readable: "edit_file on /src/a.ts", "write_file anywhere under /src". */
  label: string;
  approved: boolean;
  /** For a remembered denial: the user's note, given to the model again on each refused call. */
  note?: string;
  createdAt: string;
}

/** The part of ApprovalMemory the terminal UI needs (list and revoke). */
export interface ApprovalMemoryView {
  list(): RememberedApproval[];
  revoke(id: string): boolean;
  clear(): void;
}
