import { randomUUID } from 'node:crypto';
import type { ApprovalConfig } from '../contract/approval-types.js';
import { ApprovalResult } from '../contract/approval-types.js';
import { type ApprovalPayload, ApprovalPayloadSchema, type GenericPayload } from '../contract/payloads.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { ToolErrorInfo, ToolOutcome } from '../contract/tool-outcome.js';
import { describeCall, genericPayload } from './config.js';
import type { ToolDescriptor, Toolset } from './toolset.js';

/**
 * What a tool may say about a call before it is shown: a whole typed payload
 * (e.g. a `write` payload for a tool that writes a file, rendered as one), or
 * fields of the generic payload — a better description, the path it concerns.
 * The arguments themselves are always shown with a generic payload.
 */
export type ApprovalDescription =
  | ApprovalPayload
  | Partial<Pick<GenericPayload, 'description' | 'path' | 'mount'>>;

/** One of your own tools, to be approved like the file tools. */
export interface GatedTool<I = unknown> {
  name: string;
  description: string;
  /** Passed through to the framework, which validates the arguments before the call is checked. */
  inputSchema: unknown;
  /** Runs an approved (or pre-approved) call. A throw becomes `{ ok: false, error: { code: 'tool_failed' } }`. */
  execute(args: I, ctx: ToolCallContext): unknown;
  /** What the person is shown; without it, the tool name and every argument (a `generic` payload). */
  describeApproval?(args: I): ApprovalDescription;
  /**
   * Keys of what a call touches: calls sharing one run one after another, so the
   * second is checked and shown after the first ran. Default: none.
   */
  lockKeys?(args: I): string[];
}

export interface GatedToolsetOptions {
  /** Memory and bindings are kept per identity (default: a fresh one per toolset). */
  identity?: string;
}

/**
 * Your own tools as a Toolset: every call needs approval (unless its name is
 * `preApproved` in the approval config) and shows a generic payload or the one
 * the tool describes. Give it to ApprovalToolset, aiSdkTools or openAIAgentsTools
 * like a FileSystemToolset, or combine it with one (`combineToolsets`).
 */
export function gatedToolset(tools: readonly GatedTool[], options: GatedToolsetOptions = {}): Toolset {
  const byName = new Map<string, GatedTool>();
  for (const t of tools) {
    if (byName.has(t.name)) throw new TypeError(`Two tools are named "${t.name}".`);
    byName.set(t.name, t);
  }
  const identity = options.identity ?? `tools:${randomUUID()}`;
  return {
    sandbox: { identity },
    listTools: (): ToolDescriptor[] =>
      [...byName.values()].map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    lockKeys: (name, args) =>
      byName
        .get(name)
        ?.lockKeys?.(args)
        ?.map((k) => `${identity}\0${k}`) ?? [],
    async needsApproval(name, args, _ctx, config: ApprovalConfig = {}) {
      const tool = byName.get(name);
      if (!tool) {
        const error = unknownTool(name, byName);
        return ApprovalResult.blocked(error.message, error);
      }
      if (config[name]?.preApproved === true) return ApprovalResult.preApproved();
      try {
        return ApprovalResult.needsApproval(payloadFor(tool, args));
      } catch (error) {
        const message = `${name} could not describe this call: ${errorText(error)}`;
        return ApprovalResult.blocked(message, { code: 'invalid_argument', message });
      }
    },
    async callTool(name, args, ctx = {}): Promise<ToolOutcome> {
      const tool = byName.get(name);
      if (!tool) return { ok: false, error: unknownTool(name, byName) };
      try {
        return { ok: true, data: await tool.execute(args, ctx) };
      } catch (error) {
        return { ok: false, error: { code: 'tool_failed', message: `${name} failed: ${errorText(error)}` } };
      }
    },
  };
}

/** The payload shown for a call: the tool's own, checked against the schemas, or a generic one. */
function payloadFor(tool: GatedTool, args: unknown): ApprovalPayload {
  const described = tool.describeApproval?.(args);
  if (described && 'type' in described && described.type !== 'generic')
    return ApprovalPayloadSchema.parse(described);
  const base = genericPayload(tool.name, args, describeCall(tool.name, args));
  // Checked too: a description that is not a string would break every UI that shows it.
  return ApprovalPayloadSchema.parse({ ...base, ...described, type: 'generic', toolName: tool.name, args });
}

function unknownTool(name: string, byName: Map<string, GatedTool>): ToolErrorInfo {
  const message = `Unknown tool "${name}". Available tools: ${[...byName.keys()].join(', ')}.`;
  return { code: 'invalid_argument', message };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
