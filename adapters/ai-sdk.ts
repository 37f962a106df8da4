import { type ModelMessage, type Tool, tool } from 'ai';
import type { ApprovalMemory } from '../src/approval/approval-memory.js';
import { ApprovalToolset, type ApprovalToolsetOptions } from '../src/approval/approval-toolset.js';
import type { AuditSink } from '../src/approval/audit-events.js';
import type { ApprovalConfig } from '../src/approval/config.js';
import type { DeferredApprovals } from '../src/approval/deferred/deferred-approvals.js';
import { ApprovalAborted } from '../src/approval/errors.js';
import {
  checkOnce,
  decidePending,
  executeApproved,
  ledgerOf,
  setNativeAuditSink,
} from '../src/approval/native-ledger.js';
import type { ApprovalCallback, ApprovalResult } from '../src/approval/types.js';
import type { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import type { ToolInputs } from '../src/tools/tool-inputs.js';
import type { ToolName, ToolOutcome } from '../src/tools/types.js';
import { outcomeText } from './outcome-text.js';

export type AiSdkApproval =
  /** Ask inside `execute` through the approval layer (the Python model: the run never stops). */
  | ({ mode: 'blocking' } & ApprovalToolsetOptions)
  /** Map each call's approval to the SDK's own `needsApproval`; answer with `answerApprovals`. */
  | {
      mode: 'native';
      config?: ApprovalConfig;
      onEvent?: AuditSink;
      /**
       * Approvals answered in a later request (the web flow: the browser answers,
       * a new HTTP request — maybe another process — executes): what each request
       * showed is recorded here and execution is bound to it.
       */
      deferred?: DeferredApprovals;
    };

function modelOutput(
  name: string,
  outcome: ToolOutcome,
): { type: 'text'; value: string } | { type: 'json'; value: never } {
  return !outcome.ok || name === 'read_file'
    ? { type: 'text', value: outcomeText(name, outcome) }
    : { type: 'json', value: outcome.data as never };
}

/**
 * The toolset's tools as an AI SDK `ToolSet` (ai ^6 || ^7) for generateText,
 * streamText and ToolLoopAgent. Tool input types come from the zod schemas.
 */
export function aiSdkTools(
  toolset: FileSystemToolset,
  options: {
    approval: AiSdkApproval;
    /**
     * Blocking mode: pass its signal as generateText/streamText's `abortSignal`, and
     * quitting at the approval prompt ends the run, which rejects with ApprovalAborted.
     * (Without it the SDK turns the quit into a tool error and the model goes on.)
     */
    abortController?: AbortController;
  },
): SandboxToolSet {
  const { approval, abortController } = options;
  const gated = approval.mode === 'blocking' ? new ApprovalToolset(toolset, approval) : undefined;
  const config = approval.mode === 'native' ? (approval.config ?? {}) : {};
  const deferred = approval.mode === 'native' ? approval.deferred : undefined;
  if (approval.mode === 'native') setNativeAuditSink(toolset, approval.onEvent);
  const tools: Record<string, Tool> = {};
  for (const t of toolset.listTools()) {
    const name = t.name;
    // Cached per call id: ai@6 re-runs needsApproval on resume and must get the same answer.
    const check = async (input: unknown, toolCallId: string) =>
      recordAsked(
        deferred,
        toolset,
        name,
        input,
        toolCallId,
        await checkOnce(toolset, name, input, toolCallId, config),
      );
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
        if (gated) {
          try {
            return await gated.callTool(name, input, { toolCallId: o.toolCallId });
          } catch (error) {
            if (error instanceof ApprovalAborted) abortController?.abort(error);
            throw error;
          }
        }
        const refused = await claimDeferred(deferred, toolset, o.toolCallId);
        return refused ?? executeApproved(toolset, name, input, o.toolCallId, config);
      },
      toModelOutput: ({ output }: { output: unknown }) => modelOutput(name, output as ToolOutcome),
    } as never);
  }
  return tools as unknown as SandboxToolSet;
}

/** The built-in tools with their zod-inferred inputs, so `toolCall.input` is typed in the SDK. */
export type SandboxToolSet = { [K in ToolName]: Tool<ToolInputs[K], ToolOutcome> };

/**
 * For ai v7's `toolApproval` option (it overrides tools' needsApproval): the
 * sandbox's own decision per call — blocked calls are denied with the reason,
 * pre-approved ones skip the prompt, the rest ask the user. Answer the requests
 * with `answerApprovals`.
 */
export function sandboxToolApproval(
  toolset: FileSystemToolset,
  config: ApprovalConfig = {},
  deferred?: DeferredApprovals,
) {
  return async ({ toolCall }: { toolCall: { toolName: string; toolCallId: string; input: unknown } }) => {
    const { toolName, input, toolCallId } = toolCall;
    const result = await recordAsked(
      deferred,
      toolset,
      toolName,
      input,
      toolCallId,
      await checkOnce(toolset, toolName, input, toolCallId, config),
    );
    if (result.status === 'blocked')
      return { type: 'denied' as const, reason: result.error?.message ?? result.reason };
    if (result.status === 'pre_approved') return 'not-applicable' as const;
    return { type: 'user-approval' as const, reason: result.payload.description };
  };
}

/** Deferred mode: records what a request that needs approval shows (the first showing holds). */
async function recordAsked(
  deferred: DeferredApprovals | undefined,
  toolset: FileSystemToolset,
  toolName: string,
  input: unknown,
  toolCallId: string,
  result: ApprovalResult,
): Promise<ApprovalResult> {
  if (deferred && result.status === 'needs_approval')
    await deferred.ask({
      toolName,
      toolCallId,
      sandboxId: toolset.sandbox.identity,
      input,
      payload: result.payload,
    });
  return result;
}

/**
 * Deferred mode: the recorded request becomes the call's binding (unless this
 * process recorded a decision itself); an altered or expired record refuses it.
 */
async function claimDeferred(
  deferred: DeferredApprovals | undefined,
  toolset: FileSystemToolset,
  toolCallId: string,
): Promise<ToolOutcome | undefined> {
  if (!deferred) return undefined;
  const claimed = await deferred.claim(toolCallId);
  if (claimed.status === 'refused') return { ok: false, error: claimed.error };
  const { bindings } = ledgerOf(toolset);
  if (claimed.status === 'bound' && !bindings.has(toolCallId)) bindings.set(toolCallId, claimed.binding);
  return undefined;
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
  options: {
    toolset: FileSystemToolset;
    approve: ApprovalCallback;
    config?: ApprovalConfig;
    /** Remembered decisions ("approve and remember"); defaults to one memory per toolset. */
    memory?: ApprovalMemory;
  },
): Promise<ModelMessage> {
  const content: Array<{
    type: 'tool-approval-response';
    approvalId: string;
    approved: boolean;
    reason?: string;
  }> = [];
  for (const p of pendingApprovals(source)) {
    const d = await decidePending(
      options.toolset,
      options.approve,
      { toolName: p.toolName, toolCallId: p.toolCallId, input: p.input },
      options.config,
      options.memory,
    );
    content.push({
      type: 'tool-approval-response',
      approvalId: p.approvalId,
      approved: d.approved,
      ...(d.message ? { reason: d.message } : {}),
    });
  }
  return { role: 'tool', content } as ModelMessage;
}

export * from './ai-sdk-ui.js';
