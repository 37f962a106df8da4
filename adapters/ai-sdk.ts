import { type ModelMessage, type Tool, type ToolSet, tool } from 'ai';
import { ApprovalToolset, type ApprovalToolsetOptions } from '../src/approval/approval-toolset.js';
import type { ApprovalConfig } from '../src/approval/config.js';
import type { ApprovalPayload } from '../src/approval/payloads.js';
import type { ApprovalCallback, ApprovalResult } from '../src/approval/types.js';
import { validateDecision } from '../src/approval/validate-decision.js';
import type { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import type { ToolCallContext, ToolOutcome } from '../src/tools/types.js';

export type AiSdkApproval =
  /** Ask inside `execute` through the approval layer (the Python model: the run never stops). */
  | ({ mode: 'blocking' } & ApprovalToolsetOptions)
  /** Map each call's approval to the SDK's own `needsApproval`; answer with `answerApprovals`. */
  | { mode: 'native'; config?: ApprovalConfig };

/** What was decided for each pending tool call, shared by needsApproval, answerApprovals and execute. */
interface Ledger {
  checked: Map<string, ApprovalResult>;
  approvedState: Map<string, Pick<ToolCallContext, 'approvedBaseSha256' | 'approvedDestinationSha256'>>;
}
const ledgers = new WeakMap<FileSystemToolset, Ledger>();
function ledgerOf(toolset: FileSystemToolset): Ledger {
  let ledger = ledgers.get(toolset);
  if (!ledger) {
    ledger = { checked: new Map(), approvedState: new Map() };
    ledgers.set(toolset, ledger);
  }
  return ledger;
}

function stateOf(
  payload: ApprovalPayload,
): Pick<ToolCallContext, 'approvedBaseSha256' | 'approvedDestinationSha256'> {
  return {
    ...(payload.baseSha256 !== undefined ? { approvedBaseSha256: payload.baseSha256 } : {}),
    ...((payload.type === 'move' || payload.type === 'copy') && payload.destinationSha256 !== undefined
      ? { approvedDestinationSha256: payload.destinationSha256 }
      : {}),
  };
}

/** Compact text for the model: read_file's content as text, errors as "error <code>: message". */
function modelOutput(
  name: string,
  outcome: ToolOutcome,
): { type: 'text'; value: string } | { type: 'json'; value: never } {
  if (!outcome.ok) {
    const e = outcome.error;
    const hints = e.suggestions?.length ? `\nSuggestions: ${e.suggestions.join('; ')}` : '';
    const details = e.details ? `\nDetails: ${JSON.stringify(e.details)}` : '';
    return { type: 'text', value: `error ${e.code}: ${e.message}${hints}${details}` };
  }
  if (name === 'read_file') {
    const { content, ...meta } = outcome.data as { content: string };
    return { type: 'text', value: `${JSON.stringify(meta)}\n${content}` };
  }
  return { type: 'json', value: outcome.data as never };
}

/**
 * The toolset's tools as an AI SDK `ToolSet` (ai ^6 || ^7) for generateText,
 * streamText and ToolLoopAgent. Tool input types come from the zod schemas.
 */
export function aiSdkTools(toolset: FileSystemToolset, options: { approval: AiSdkApproval }): ToolSet {
  const { approval } = options;
  const gated = approval.mode === 'blocking' ? new ApprovalToolset(toolset, approval) : undefined;
  const ledger = ledgerOf(toolset);
  const config = approval.mode === 'native' ? (approval.config ?? {}) : {};
  const tools: Record<string, Tool> = {};
  for (const t of toolset.listTools()) {
    const name = t.name;
    // Cached per call id: ai@6 re-runs needsApproval on resume and must get the same answer.
    const check = async (input: unknown, toolCallId: string) => {
      const known = ledger.checked.get(toolCallId);
      if (known) return known;
      const result = await toolset.needsApproval(name, input, { toolCallId }, config);
      ledger.checked.set(toolCallId, result);
      return result;
    };
    tools[name] = tool({
      description: t.description,
      inputSchema: t.inputSchema,
      ...(approval.mode === 'native'
        ? {
            needsApproval: async (input: unknown, o: { toolCallId: string }) =>
              (await check(input, o.toolCallId)).status === 'needs_approval',
          }
        : {}),
      execute: async (input: unknown, o: { toolCallId: string }): Promise<ToolOutcome> => {
        if (gated) return gated.callTool(name, input, { toolCallId: o.toolCallId });
        const result = await check(input, o.toolCallId);
        ledger.checked.delete(o.toolCallId);
        if (result.status === 'blocked') {
          return {
            ok: false,
            error: result.error ?? {
              code: 'approval_blocked',
              message: `Blocked by policy, not run: ${result.reason}`,
            },
          };
        }
        // Bound to the state the user approved (from answerApprovals), else to the state the approval was asked for.
        const bound =
          ledger.approvedState.get(o.toolCallId) ??
          (result.status === 'needs_approval' ? stateOf(result.payload) : {});
        ledger.approvedState.delete(o.toolCallId);
        return toolset.callTool(name, input, { toolCallId: o.toolCallId, ...bound });
      },
      toModelOutput: ({ output }: { output: unknown }) => modelOutput(name, output as ToolOutcome),
    } as never);
  }
  return tools as ToolSet;
}

interface PendingApproval {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** Pending approval requests, from a generateText/streamText result or from a message history. */
function pendingApprovals(source: { content?: unknown[] } | ModelMessage[]): PendingApproval[] {
  const parts: Array<Record<string, unknown>> = Array.isArray(source)
    ? source.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []))
    : ((source.content ?? []) as Array<Record<string, unknown>>);
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const answered = new Set<string>();
  for (const p of parts) {
    if (p.type === 'tool-call')
      calls.set(String(p.toolCallId), { toolName: String(p.toolName), input: p.input });
    if (p.type === 'tool-approval-response') answered.add(String(p.approvalId));
  }
  const pending: PendingApproval[] = [];
  for (const p of parts) {
    if (p.type !== 'tool-approval-request' || answered.has(String(p.approvalId))) continue;
    const call = (p.toolCall as { toolCallId: string; toolName: string; input: unknown } | undefined) ?? {
      toolCallId: String(p.toolCallId),
      ...calls.get(String(p.toolCallId))!,
    };
    pending.push({
      approvalId: String(p.approvalId),
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
    });
  }
  return pending;
}

/**
 * Answers every pending `tool-approval-request` by showing its typed payload to
 * an ApprovalCallback (e.g. the terminal UI) and returns the `tool` message of
 * `tool-approval-response` parts to append before resuming. Approvals stay bound
 * to the file state shown: if the file changes before execution, the call fails
 * with `stale_approval`.
 */
export async function answerApprovals(
  source: { content?: unknown[] } | ModelMessage[],
  options: { toolset: FileSystemToolset; approve: ApprovalCallback; config?: ApprovalConfig },
): Promise<ModelMessage> {
  const ledger = ledgerOf(options.toolset);
  const content: Array<{
    type: 'tool-approval-response';
    approvalId: string;
    approved: boolean;
    reason?: string;
  }> = [];
  for (const p of pendingApprovals(source)) {
    const result = await options.toolset.needsApproval(
      p.toolName,
      p.input,
      { toolCallId: p.toolCallId },
      options.config,
    );
    ledger.checked.set(p.toolCallId, result);
    if (result.status !== 'needs_approval') {
      const approved = result.status === 'pre_approved';
      content.push({
        type: 'tool-approval-response',
        approvalId: p.approvalId,
        approved,
        ...(approved ? {} : { reason: result.status === 'blocked' ? result.reason : '' }),
      });
      continue;
    }
    const decision = validateDecision(
      await options.approve({
        toolName: p.toolName,
        toolCallId: p.toolCallId,
        args: p.input,
        payload: result.payload,
        description: result.payload.description,
      }),
    );
    if (decision.approved) ledger.approvedState.set(p.toolCallId, stateOf(result.payload));
    content.push({
      type: 'tool-approval-response',
      approvalId: p.approvalId,
      approved: decision.approved,
      ...(decision.note ? { reason: decision.note } : {}),
    });
  }
  return { role: 'tool', content } as ModelMessage;
}
