import type { ApprovalConfig, ApprovalResult } from '../contract/approval-types.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';

/** A tool as the adapters present it to a framework: its schema is passed through untouched. */
export interface ToolDescriptor {
  name: string;
  /** What the model is told about the tool. */
  description: string;
  /** A zod schema, or a JSON Schema object (the adapters pass either to the framework). */
  inputSchema: unknown;
}

/**
 * What the approval layer and the framework adapters need of a set of tools.
 * The file tools (FileSystemToolset) are one implementation; `gatedToolset`
 * turns any functions into another, so a `run_command` or an HTTP call is
 * approved through the same callback, memory, audit and UIs.
 */
export interface Toolset {
  /** Decisions are remembered and bound per identity, so two toolsets never share an approval by accident. */
  readonly sandbox: { readonly identity: string };
  listTools(): readonly ToolDescriptor[];
  /** Runs a call; expected failures come back as `{ ok: false, error }`, never thrown. */
  callTool(name: string, args: unknown, ctx?: ToolCallContext): Promise<ToolOutcome>;
  /** What approval the call needs now (`config[name].preApproved` skips asking, never a block). */
  needsApproval(
    name: string,
    args: unknown,
    ctx?: ToolCallContext,
    config?: ApprovalConfig,
  ): Promise<ApprovalResult>;
  /** Keys of what a call touches: calls sharing a key are checked, approved and run one after another. */
  lockKeys(name: string, args: unknown): string[];
}
