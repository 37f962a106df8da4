import { type Agent, type FunctionTool, type RunResult, RunState, run, tool } from '@openai/agents';
import { z } from 'zod';
import { deniedError } from '../src/approval/approval-binding.js';
import type { ApprovalMemory } from '../src/approval/approval-memory.js';
import { ApprovalToolset, type ApprovalToolsetOptions } from '../src/approval/approval-toolset.js';
import type { AuditSink } from '../src/approval/audit-events.js';
import { genericPayload } from '../src/approval/config.js';
import { ApprovalAborted } from '../src/approval/errors.js';
import {
  checkOnce,
  decidePending,
  executeApproved,
  setNativeAuditSink,
} from '../src/approval/native-ledger.js';
import type { Toolset } from '../src/approval/toolset.js';
import { validateDecision } from '../src/approval/validate-decision.js';
import type { ApprovalCallback, ApprovalConfig } from '../src/contract/approval-types.js';
import { outcomeText } from './outcome-text.js';

// biome-ignore lint/suspicious/noExplicitAny: agents of any context and output type
type AnyAgent = Agent<any, any>;

export type OpenAIAgentsApproval =
  /** Ask inside the tool call through the approval layer (the run never pauses). */
  | ({ mode: 'blocking' } & ApprovalToolsetOptions)
  /** Use the SDK's needsApproval/interruptions; answer them with `runWithApprovals`. */
  | { mode: 'native'; config?: ApprovalConfig; onEvent?: AuditSink };

/** Which toolset made each function tool, so interruptions can be answered without naming it. */
const owners = new WeakMap<object, Toolset>();

/** A tool's input as JSON Schema (zod 4's own for a zod schema), in the SDK's non-strict object shape. */
function jsonParameters(schema: unknown): Record<string, unknown> {
  const converted =
    schema instanceof z.ZodType ? z.toJSONSchema(schema, { unrepresentable: 'any' }) : (schema ?? {});
  const { $schema: _drop, ...json } = converted as Record<string, unknown>;
  return { type: 'object', properties: {}, required: [], ...json, additionalProperties: true };
}

/** The tool's call id as the SDK passes it to execute. */
function callIdOf(details: unknown): string {
  const id = (details as { toolCall?: { callId?: string } } | undefined)?.toolCall?.callId;
  return id ?? `call-${Math.random().toString(36).slice(2)}`;
}

/**
 * The toolset's tools as OpenAI Agents function tools. Outcomes reach the model
 * as text with the error code and message (the SDK's default error text would hide
 * them); quitting at the approval prompt ends the run.
 */
export function openAIAgentsTools(
  toolset: Toolset,
  options: { approval: OpenAIAgentsApproval },
): FunctionTool[] {
  const { approval } = options;
  const gated = approval.mode === 'blocking' ? new ApprovalToolset(toolset, approval) : undefined;
  const config = approval.mode === 'native' ? (approval.config ?? {}) : {};
  if (approval.mode === 'native') setNativeAuditSink(toolset, approval.onEvent);
  const tools = toolset.listTools().map((t) =>
    tool({
      name: t.name,
      description: t.description,
      // Non-strict JSON Schema: strict mode cannot express our optional fields, and the toolset
      // validates every call itself (invalid_argument naming each bad field).
      parameters: jsonParameters(t.inputSchema) as never,
      strict: false,
      ...(approval.mode === 'native'
        ? {
            needsApproval: async (_ctx: unknown, input: unknown, callId?: string) =>
              (await checkOnce(toolset, t.name, input, callId ?? '', config)).status === 'needs_approval',
          }
        : {}),
      execute: async (input: unknown, _ctx: unknown, details: unknown) => {
        const callId = callIdOf(details);
        const outcome = gated
          ? await gated.callTool(t.name, input, { toolCallId: callId })
          : await executeApproved(toolset, t.name, input, callId, config);
        return outcomeText(t.name, outcome);
      },
      errorFunction: (_ctx: unknown, error: unknown) => {
        if (error instanceof ApprovalAborted) throw error;
        return `error io_error: ${error instanceof Error ? error.message : String(error)}`;
      },
    } as never),
  ) as FunctionTool[];
  for (const t of tools) owners.set(t, toolset);
  return tools;
}

export interface AnswerOptions {
  approve: ApprovalCallback;
  /** The toolset behind the tools; found from the agent's tools when omitted. */
  toolset?: Toolset;
  config?: ApprovalConfig;
  /** Remembered decisions ("approve and remember"); defaults to one memory per toolset. */
  memory?: ApprovalMemory;
}

/** The toolset that made the interrupted tool, if it is one of ours. */
function ownerOf(item: { agent?: { tools?: unknown[] } }, toolName: string): Toolset | undefined {
  const t = item.agent?.tools?.find((x) => (x as { name?: string }).name === toolName);
  return t ? owners.get(t as object) : undefined;
}

/**
 * Answers every pending interruption of a run state through an ApprovalCallback
 * (the terminal UI, a policy, …): approvals are bound to the file state shown;
 * denials reach the model as the rejection message, with the user's note.
 */
export async function answerInterruptions(
  state: RunState<unknown, AnyAgent>,
  options: AnswerOptions,
): Promise<void> {
  for (const item of state.getInterruptions()) {
    const raw = item.rawItem as { callId?: string; name?: string; arguments?: string };
    const toolName = item.name ?? raw.name ?? '';
    let input: unknown = {};
    try {
      input = JSON.parse(item.arguments ?? raw.arguments ?? '{}');
    } catch {
      // Unparseable arguments: the tool's validation reports it when it runs.
    }
    const toolset = ownerOf(item, toolName) ?? options.toolset;
    const d = toolset
      ? await decidePending(
          toolset,
          options.approve,
          { toolName, toolCallId: raw.callId ?? '', input },
          options.config,
          options.memory,
        )
      : await decideForeign(options.approve, toolName, raw.callId, input);
    if (d.approved) state.approve(item);
    else
      state.reject(item, { message: d.message ?? 'The user denied this call. Do not retry it unchanged.' });
  }
}

/** Another tool of the agent (not ours) that asks for approval: shown as a generic payload. */
async function decideForeign(
  approve: ApprovalCallback,
  toolName: string,
  toolCallId: string | undefined,
  args: unknown,
): Promise<{ approved: boolean; message?: string }> {
  const payload = genericPayload(toolName, args);
  const d = validateDecision(
    await approve({
      toolName,
      ...(toolCallId ? { toolCallId } : {}),
      args,
      payload,
      description: payload.description,
    }),
  );
  if (d.approved) return { approved: true };
  return { approved: false, message: deniedError({ toolName, ...d }).message };
}

/**
 * Runs an agent, answering every approval interruption through `approve` and
 * resuming until the run completes. Accepts a fresh input or a restored RunState.
 */
export async function runWithApprovals(
  agent: AnyAgent,
  input: string | RunState<unknown, AnyAgent>,
  options: AnswerOptions & {
    runner?: (
      agent: AnyAgent,
      input: string | RunState<unknown, AnyAgent>,
    ) => Promise<RunResult<unknown, AnyAgent>>;
    maxResumes?: number;
  },
): Promise<RunResult<unknown, AnyAgent>> {
  const runner = options.runner ?? ((a, i) => run(a, i as never) as never);
  // Quitting inside a blocking-mode tool reaches run() wrapped in the SDK's ToolCallError: unwrap it.
  const runOnce: typeof runner = (a, i) =>
    runner(a, i).catch((error: unknown) => {
      const inner = (error as { error?: unknown } | null)?.error;
      throw inner instanceof ApprovalAborted ? inner : error;
    });
  let result = await runOnce(agent, input);
  for (let i = 0; result.interruptions.length > 0; i++) {
    if (i >= (options.maxResumes ?? 100)) throw new Error('runWithApprovals: too many approval rounds.');
    await answerInterruptions(result.state as never, options);
    result = await runOnce(agent, result.state as never);
  }
  return result;
}

export { type SandboxEditorOptions, sandboxEditor } from './openai-agents-editor.js';
export { RunState };
export { gateOpenAIAgentsTools, openAIAgentsToolset } from './openai-agents-gate.js';
export { type OpenAIAgentsReviewOptions, openAIAgentsReviewTools } from './openai-agents-review.js';
