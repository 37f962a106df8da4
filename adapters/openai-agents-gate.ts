import { type FunctionTool, RunContext } from '@openai/agents';
import { type GatedTool, gatedToolset } from '../src/approval/gated-toolset.js';
import type { Toolset } from '../src/approval/toolset.js';
import type { AiSdkGateOptions as GateOptions } from './ai-sdk-gate.js';
import { type OpenAIAgentsApproval, openAIAgentsTools } from './openai-agents.js';

// biome-ignore lint/suspicious/noExplicitAny: function tools of any context, parameters and result
type AnyFunctionTool = FunctionTool<any, any, any>;
type Invoke = FunctionTool['invoke'];
type Stashed = { runContext: Parameters<Invoke>[0]; details: Parameters<Invoke>[2] };

/**
 * Your own Agents function tools (`tool({ … })`) as a Toolset, to give
 * openAIAgentsTools (alone, or with the file tools through `combineToolsets`).
 * Each call is approved like a file tool's (a tool's own needsApproval is not
 * used); what runs is your tool, with its own validation and error handling.
 */
export function openAIAgentsToolset(tools: readonly AnyFunctionTool[], options: GateOptions = {}): Toolset {
  return gate(tools, options, new Map());
}

/** `openAIAgentsTools(openAIAgentsToolset(tools), …)`, passing each call's run context to your tool. */
export function gateOpenAIAgentsTools(
  tools: readonly AnyFunctionTool[],
  options: { approval: OpenAIAgentsApproval } & GateOptions,
): FunctionTool[] {
  const calls = new Map<string, Stashed>();
  const gated = openAIAgentsTools(gate(tools, options, calls), options);
  for (const t of gated) {
    const invoke = t.invoke;
    t.invoke = async (runContext, input, details) => {
      const id = details?.toolCall?.callId;
      if (id) calls.set(id, { runContext, details });
      try {
        return await invoke(runContext, input, details);
      } finally {
        if (id) calls.delete(id);
      }
    };
  }
  return gated;
}

function gate(tools: readonly AnyFunctionTool[], options: GateOptions, calls: Map<string, Stashed>): Toolset {
  const gatedTools = tools.map((t): GatedTool => {
    const own = (t as { describeApproval?: GatedTool['describeApproval'] }).describeApproval;
    const describe = options.describeApproval?.[t.name] ?? own;
    return {
      name: t.name,
      description: t.description,
      inputSchema: t.parameters,
      execute: (args, ctx) => {
        const stashed = calls.get(ctx.toolCallId ?? '');
        return t.invoke(stashed?.runContext ?? new RunContext(), JSON.stringify(args), stashed?.details);
      },
      ...(describe ? { describeApproval: describe } : {}),
    };
  });
  return gatedToolset(gatedTools, options.identity ? { identity: options.identity } : {});
}
