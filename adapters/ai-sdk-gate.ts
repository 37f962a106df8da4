import type { Tool, ToolSet } from 'ai';
import { type ApprovalDescription, type GatedTool, gatedToolset } from '../src/approval/gated-toolset.js';
import type { Toolset } from '../src/approval/toolset.js';
import { type AiSdkToolsOptions, aiSdkTools } from './ai-sdk.js';

/** Say what the person is shown for a call (default: the tool name and every argument). */
// biome-ignore lint/suspicious/noExplicitAny: each tool's arguments have their own type
export type DescribeApproval = (args: any) => ApprovalDescription;

export interface AiSdkGateOptions {
  /** Per tool name; a tool object may also carry its own `describeApproval` function. */
  describeApproval?: Record<string, DescribeApproval>;
  /** Identity of the toolset (remembered decisions are kept per identity). */
  identity?: string;
}

type CallOptions = Parameters<NonNullable<Tool['execute']>>[1];

/**
 * Your own AI SDK tools (`tool({ … })` with an `execute`) as a Toolset, to give
 * aiSdkTools (alone, or with the file tools through `combineToolsets`). Each
 * call is approved like a file tool's; what runs is your tool's execute, and
 * its output reaches the model as `{ ok: true, data }`.
 */
export function aiSdkToolset(tools: ToolSet, options: AiSdkGateOptions = {}): Toolset {
  return gate(tools, options, new Map());
}

/** `aiSdkTools(aiSdkToolset(tools), …)`, passing each call's SDK options (abortSignal, messages, …) to your tool. */
export function gateAiSdkTools(tools: ToolSet, options: AiSdkToolsOptions & AiSdkGateOptions): ToolSet {
  const calls = new Map<string, CallOptions>();
  const gated = aiSdkTools(gate(tools, options, calls), options);
  for (const t of Object.values(gated)) {
    const execute = t.execute as (input: unknown, o: CallOptions) => unknown;
    t.execute = (async (input: unknown, o: CallOptions) => {
      calls.set(o.toolCallId, o);
      try {
        return await execute(input, o);
      } finally {
        calls.delete(o.toolCallId);
      }
    }) as never;
  }
  return gated;
}

function gate(tools: ToolSet, options: AiSdkGateOptions, calls: Map<string, CallOptions>): Toolset {
  const gatedTools = Object.entries(tools).map(([name, t]): GatedTool => {
    const execute = t.execute as ((input: unknown, o: CallOptions) => unknown) | undefined;
    if (!execute)
      throw new TypeError(`The tool "${name}" has no execute function: there is nothing to gate.`);
    const own = (t as { describeApproval?: DescribeApproval }).describeApproval;
    const describe = options.describeApproval?.[name] ?? own;
    return {
      name,
      // ai v7 may describe a tool with a function of the call context; the string form covers the rest.
      description: typeof t.description === 'string' ? t.description : '',
      inputSchema: t.inputSchema,
      execute: async (args, ctx) => {
        const id = ctx.toolCallId ?? '';
        return lastValue(
          await execute(
            args,
            calls.get(id) ?? ({ toolCallId: id, messages: [], context: undefined } as CallOptions),
          ),
        );
      },
      ...(describe ? { describeApproval: describe } : {}),
    };
  });
  return gatedToolset(gatedTools, options.identity ? { identity: options.identity } : {});
}

/** A streaming tool (an async iterable of partial outputs) ends with its final output. */
async function lastValue(result: unknown): Promise<unknown> {
  if (result === null || typeof result !== 'object' || !(Symbol.asyncIterator in result)) return result;
  let last: unknown;
  for await (const value of result as AsyncIterable<unknown>) last = value;
  return last;
}
