import { type ModelMessage, type Tool, type ToolSet, tool } from 'ai';
import type { ApprovalMemory } from '../src/approval/approval-memory.js';
import { ApprovalToolset, type ApprovalToolsetOptions } from '../src/approval/approval-toolset.js';
import type { AuditSink } from '../src/approval/audit-events.js';
import type { DeferredApprovals } from '../src/approval/deferred/deferred-approvals.js';
import { claimDeferred, recordAsked, resumesRecorded } from '../src/approval/deferred/deferred-flow.js';
import { ApprovalAborted } from '../src/approval/errors.js';
import {
  checkOnce,
  decidePending,
  executeApproved,
  setNativeAuditSink,
} from '../src/approval/native-ledger.js';
import type { Toolset } from '../src/approval/toolset.js';
import type { ApprovalCallback, ApprovalConfig } from '../src/contract/approval-types.js';
import type { ToolOutcome } from '../src/contract/tool-outcome.js';
import type { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import type { ToolInputs } from '../src/tools/tool-inputs.js';
import type { ToolName } from '../src/tools/types.js';
import { outcomeText } from './outcome-text.js';

export type AiSdkApproval =
  /** Ask inside `execute` through the approval layer: the run never stops, the question is part of the call. */
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

export interface AiSdkToolsOptions {
  approval: AiSdkApproval;
  /**
   * Blocking mode: pass its signal as generateText/streamText's `abortSignal`, and
   * quitting at the approval prompt ends the run, which rejects with ApprovalAborted.
   * (Without it the SDK turns the quit into a tool error and the model goes on.)
   */
  abortController?: AbortController;
}

/**
 * The toolset's tools as an AI SDK `ToolSet` (ai ^6 || ^7) for generateText,
 * streamText and ToolLoopAgent. Tool input types come from the zod schemas.
 */
export function aiSdkTools(toolset: FileSystemToolset, options: AiSdkToolsOptions): SandboxToolSet;
/** Any Toolset (your own tools through `gatedToolset`, or several through `combineToolsets`). */
export function aiSdkTools(toolset: Toolset, options: AiSdkToolsOptions): ToolSet;
export function aiSdkTools(toolset: Toolset, options: AiSdkToolsOptions): ToolSet {
  const { approval, abortController } = options;
  const gated = approval.mode === 'blocking' ? new ApprovalToolset(toolset, approval) : undefined;
  const config = approval.mode === 'native' ? (approval.config ?? {}) : {};
  const deferred = approval.mode === 'native' ? approval.deferred : undefined;
  if (approval.mode === 'native') setNativeAuditSink(toolset, approval.onEvent);
  const tools: Record<string, Tool> = {};
  for (const t of toolset.listTools()) {
    const name = t.name;
    // Cached per call id: ai@6 re-runs needsApproval on resume and must get the same answer.
    const check = async (input: unknown, toolCallId: string, messages: unknown) =>
      recordAsked(
        deferred,
        toolset,
        { toolName: name, input, toolCallId, messages },
        await checkOnce(toolset, name, input, toolCallId, config),
      );
    tools[name] = tool({
      description: t.description,
      inputSchema: t.inputSchema,
      ...(approval.mode === 'native'
        ? {
            needsApproval: async (input: unknown, o: { toolCallId: string; messages?: unknown }) => {
              // Resuming a recorded approval: it still needs one (ai@6 would turn "no" into a denial),
              // and execute decides against what was shown (stale_approval when the file changed).
              if (await resumesRecorded(deferred, toolset, o.messages, o.toolCallId)) return true;
              return (await check(input, o.toolCallId, o.messages)).status === 'needs_approval';
            },
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
  return tools;
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
  toolset: Toolset,
  config: ApprovalConfig = {},
  deferred?: DeferredApprovals,
) {
  return async ({
    toolCall,
    messages,
  }: {
    toolCall: { toolName: string; toolCallId: string; input: unknown };
    messages?: unknown;
  }) => {
    const { toolName, input, toolCallId } = toolCall;
    const result = await recordAsked(
      deferred,
      toolset,
      { toolName, input, toolCallId, messages },
      await checkOnce(toolset, toolName, input, toolCallId, config),
    );
    if (result.status === 'blocked')
      return { type: 'denied' as const, reason: result.error?.message ?? result.reason };
    if (result.status === 'pre_approved') return 'not-applicable' as const;
    return { type: 'user-approval' as const, reason: result.payload.description };
  };
}

/**
 * The messages a generateText/streamText round added to the history, every
 * step's included, on ai v6 and v7 alike: v7 has them in `responseMessages`
 * (its `response.messages` holds the last step only), v6 in `response.messages`.
 * Append them to the history before answering approvals and resuming.
 */
export function responseMessagesOf(result: {
  response: { messages: ReadonlyArray<ModelMessage> };
}): ModelMessage[] {
  const all = (result as { responseMessages?: ReadonlyArray<ModelMessage> }).responseMessages;
  return [...(all ?? result.response.messages)];
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
    toolset: Toolset;
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

export { type AiSdkGateOptions, aiSdkToolset, type DescribeApproval, gateAiSdkTools } from './ai-sdk-gate.js';
export { type AiSdkReviewOptions, aiSdkReviewTools, reviewTurn } from './ai-sdk-review.js';
export {
  approvalPart,
  approvalPayloadsOf,
  SANDBOX_APPROVAL_DATA,
  type SandboxApprovalData,
  type SandboxApprovalPart,
  type SandboxDataParts,
  type SandboxUIMessage,
  sandboxApprovalResponse,
  withApprovalPayloads,
} from './ai-sdk-ui.js';
