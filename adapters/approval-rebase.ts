import type { ApprovalConfig } from '../src/approval/config.js';
import type { ApprovalPayload } from '../src/approval/payloads.js';
import type { FileSystemToolset } from '../src/tools/filesystem-toolset.js';

/**
 * Native mode answers a whole batch of pending calls before any of them runs, so
 * two approved edits of one file were both shown against the same state; once the
 * first is applied, the second would be refused as stale. These helpers let the
 * second go ahead only when nothing but approved calls of this toolset changed
 * the file in between AND the change it makes now is line for line the change the
 * user approved. Anything else stays `stale_approval`.
 */

/** The lines a diff payload removes and adds, in order: what "the same change" means. */
export function changeSignature(payload: ApprovalPayload): string | undefined {
  const diff = (payload as { unifiedDiff?: unknown }).unifiedDiff;
  if (typeof diff !== 'string' || payload.baseSha256 == null) return undefined;
  const changed = diff
    .split('\n')
    .filter((l) => (l.startsWith('+') || l.startsWith('-')) && !l.startsWith('+++') && !l.startsWith('---'));
  return changed.length > 0 ? `${payload.path}\n${changed.join('\n')}` : undefined;
}

/** File states produced by approved calls: after-sha → before-sha. */
export type AppliedChain = Map<string, string>;

/** True when `to` was reached from `from` through approved calls only. */
function reachedThroughApproved(chain: AppliedChain, from: string, to: string): boolean {
  let state: string | undefined = to;
  for (let steps = 0; state !== undefined && steps < 1000; steps++) {
    if (state === from) return true;
    state = chain.get(state);
  }
  return false;
}

/**
 * The file state to bind an approved call to: the approved one, or the current
 * one when the file moved on only through approved calls and the call's change is
 * unchanged.
 */
export async function rebasedState(
  toolset: FileSystemToolset,
  call: { name: string; input: unknown; toolCallId: string },
  approvedBase: string,
  signature: string,
  chain: AppliedChain,
  config: ApprovalConfig,
): Promise<string> {
  const now = await toolset.needsApproval(call.name, call.input, { toolCallId: call.toolCallId }, config);
  if (now.status !== 'needs_approval') return approvedBase;
  const current = now.payload.baseSha256;
  if (typeof current !== 'string' || current === approvedBase) return approvedBase;
  if (!reachedThroughApproved(chain, approvedBase, current)) return approvedBase;
  return changeSignature(now.payload) === signature ? current : approvedBase;
}
