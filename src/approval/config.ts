import { type ApprovalConfig, ApprovalResult } from '../contract/approval-types.js';
import type { GenericPayload } from '../contract/payloads.js';

/** `name(k=v, …)`, values JSON-encoded and cut: one line a person can read at a glance, whatever the arguments. */
export function describeCall(toolName: string, args: unknown): string {
  if (args === null || typeof args !== 'object') return `${toolName}()`;
  const parts = Object.entries(args as Record<string, unknown>).map(([k, v]) => {
    const text = JSON.stringify(v) ?? String(v);
    return `${k}=${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
  });
  return `${toolName}(${parts.join(', ')})`;
}

/** A payload for tools that have none of their own (custom toolsets). */
export function genericPayload(
  toolName: string,
  args: unknown,
  description = describeCall(toolName, args),
): GenericPayload {
  const path =
    typeof (args as { path?: unknown } | null)?.path === 'string' ? (args as { path: string }).path : '';
  return { type: 'generic', description, path, mount: '', toolName, args };
}

/** Secure by default: only tools configured `{ preApproved: true }` skip the prompt. */
export function needsApprovalFromConfig(
  toolName: string,
  config: ApprovalConfig = {},
  args?: unknown,
): ApprovalResult {
  if (config[toolName]?.preApproved === true) return ApprovalResult.preApproved();
  return ApprovalResult.needsApproval(genericPayload(toolName, args ?? {}));
}
