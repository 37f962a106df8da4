import { ApprovalResult } from '../contract/approval-types.js';
import { SandboxError } from '../contract/errors.js';
import type { ApprovalPayload } from '../contract/payloads.js';
import type { TextSplice } from '../edit/text-format.js';
import type { WriteData } from '../fs/fd-io.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { fileTargetOf } from '../sandbox/target.js';
import { copyFields } from '../text/lazy-string.js';
import { isAsciiFile } from './ascii-data.js';
import { type LoadedFile, loadFile, saveFile, withLock } from './file-io.js';
import {
  boundEntry,
  checkApprovedState,
  checkApprovedTarget,
  checkBaseSha256,
  checkReadIdentity,
  loadingApproved,
  resolveApproved,
  resolvedField,
  throughLinks,
} from './file-state.js';
import { observeOwnEdit, observeVersion } from './shown-versions.js';
import { toErrorInfo } from './tool-error.js';
import type { FileState, ToolContext } from './types.js';

/** Sandbox refusals that are policy (shown as approval_blocked), not mistakes in the call. */
const POLICY_CODES = new Set(['path_not_in_sandbox', 'path_not_writable', 'suffix_not_allowed']);

/** Turns a failure found while preparing approval into a `blocked` result that keeps its code. */
export function blockedFrom(error: unknown): ApprovalResult {
  const info = toErrorInfo(error);
  if (error instanceof SandboxError && POLICY_CODES.has(error.code)) {
    return ApprovalResult.blocked(info.message);
  }
  return ApprovalResult.blocked(info.message, info);
}

/**
 * needsApproval for tools that change one file: policy checks first (blocked),
 * then the mount's writeApproval flag (pre-approved), then the payload, computed
 * from the file as it is now. A call that would fail is blocked with its error.
 */
export async function writerApproval(
  ctx: ToolContext,
  path: string,
  baseSha256: string | undefined,
  buildPayload: (
    resolved: ResolvedPath,
    current: LoadedFile | undefined,
  ) => Promise<ApprovalPayload> | ApprovalPayload,
): Promise<ApprovalResult> {
  try {
    const resolved = ctx.sandbox.resolve(path, 'write');
    if (!resolved.mount.writeApproval) return ApprovalResult.preApproved();
    const current = await loadFile(ctx, resolved);
    checkBaseSha256(ctx, resolved.virtualPath, baseSha256, current);
    const payload = await buildPayload(resolved, current);
    return ApprovalResult.needsApproval(
      // Copied with its diff unread (a policy may decide without anyone reading it).
      copyFields(payload, {
        description: payload.description + throughLinks(resolved),
        ...resolvedField(resolved),
      }) as ApprovalPayload,
      { path: fileTargetOf(resolved) },
    );
  } catch (error) {
    return blockedFrom(error);
  }
}

/**
 * What to write for an edit: an ASCII file's unchanged head and tail are its own bytes
 * (a character is a byte there), so only the changed middle is encoded. Encoding the
 * whole new text (a string of joined pieces) cost more than the rest of an edit of a
 * big file. Anything else is written as the text.
 */
function piecesToWrite(before: LoadedFile | undefined, newText: string, splice?: TextSplice): WriteData {
  if (!splice || !before || !isAsciiFile(before)) return newText;
  const { head, middle, tail } = splice;
  const { data, text } = before;
  if (head + middle.length + tail !== newText.length || head + tail > text.length) return newText;
  // A big ASCII file holds only its text: its ends are written from there (slices, nothing joined).
  return data
    ? [data.subarray(0, head), middle, data.subarray(data.length - tail)]
    : [text.slice(0, head), middle, text.slice(text.length - tail)];
}

export interface WriteOutcome<P> {
  resolved: ResolvedPath;
  before: LoadedFile | undefined;
  plan: P;
  state: FileState;
  bytes: number;
  created: boolean;
}

/**
 * execute for tools that change one file. Under the per-file lock: re-resolve,
 * load, check the approved and the caller's base state, compute, write
 * atomically, journal the change and record the new version. The plan's
 * `whileSaving` (work only the result needs) runs while the disk syncs the write.
 */
export async function applyWrite<
  P extends {
    newText: string;
    splice?: TextSplice;
    whileSaving?: () => void;
    /** The tool records what it showed of the new version itself (edit_lines). */
    recordsAnchors?: boolean;
  },
>(
  ctx: ToolContext,
  toolName: string,
  path: string,
  baseSha256: string | undefined,
  compute: (current: LoadedFile | undefined, resolved: ResolvedPath) => Promise<P> | P,
): Promise<WriteOutcome<P>> {
  const first = resolveApproved(ctx, 'path', path, 'write');
  return withLock(first, async () => {
    const resolved = resolveApproved(ctx, 'path', path, 'write');
    checkApprovedTarget(ctx, 'path', resolved);
    const before = await loadingApproved(ctx, 'path', resolved, () => loadFile(ctx, resolved));
    checkReadIdentity(ctx, 'path', resolved.virtualPath, before);
    checkApprovedState(ctx, resolved.virtualPath, ctx.approvedBaseSha256, before);
    checkBaseSha256(ctx, resolved.virtualPath, baseSha256, before);
    const plan = await compute(before, resolved);
    const saved = await saveFile(
      ctx,
      resolved,
      piecesToWrite(before, plan.newText, plan.splice),
      before?.mode,
      boundEntry(ctx, 'path'),
      plan.whileSaving,
      true,
    );
    ctx.journal.record({
      toolName,
      path: resolved.virtualPath,
      beforeSha256: before?.sha256 ?? null,
      afterSha256: saved.sha256,
      ...(before ? { beforeContent: before.data ?? before.text, beforeMode: before.mode } : {}),
    });
    ctx.writers.record(resolved.virtualPath, toolName);
    // Anchors given for this file stay bound to their lines through this change.
    if (!plan.recordsAnchors) {
      if (before) observeOwnEdit(ctx, resolved.hostPath, before.text, plan.newText, plan.splice);
      else observeVersion(ctx, resolved.hostPath, plan.newText);
    }
    const state = ctx.state.record(resolved.virtualPath, saved.sha256);
    return { resolved, before, plan, state, bytes: saved.bytes, created: saved.created };
  });
}
