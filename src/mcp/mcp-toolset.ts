import type { InnerToolset } from '../approval/approval-toolset.js';
import type { ApprovalConfig, ApprovalResult } from '../contract/approval-types.js';
import type { ChangeRecord } from '../contract/change-record.js';
import { SandboxError } from '../contract/errors.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { FileSystemToolset } from '../tools/filesystem-toolset.js';
import { toErrorInfo, toolError } from '../tools/tool-error.js';
import type { SandboxTool } from '../tools/types.js';

// biome-ignore lint/suspicious/noExplicitAny: tools of different input/output types live in one registry
type AnyTool = SandboxTool<any, any>;

/**
 * The toolset as the MCP server exposes it: the FileSystemToolset's tools, or
 * the subset the command's `--tools` names; a name outside it is refused as
 * unknown. Everything else — sandbox identity, per-file lock keys, history,
 * undo — is the inner toolset's, so approvals through MCP bind exactly as
 * anywhere else. Implements the approval layer's InnerToolset.
 */
export class McpToolset implements InnerToolset {
  private current: FileSystemToolset;
  private readonly order: string[];

  constructor(inner: FileSystemToolset, names?: readonly string[]) {
    this.current = inner;
    const all = inner.listTools().map((t) => t.name);
    const unknown = (names ?? []).filter((n) => !all.includes(n));
    if (unknown.length > 0) {
      throw new SandboxError(
        'invalid_argument',
        `Unknown tool name${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}. Available tools: ${all.join(', ')}.`,
      );
    }
    this.order = names ? all.filter((n) => names.includes(n)) : all;
  }

  get inner(): FileSystemToolset {
    return this.current;
  }

  get sandbox(): Sandbox {
    return this.current.sandbox;
  }

  /** Serves the same tools (and state) through another view, e.g. the sandbox narrowed to the client's roots. */
  replaceInner(view: FileSystemToolset): void {
    this.current = view;
  }

  listTools(): AnyTool[] {
    return this.order.map((n) => this.inner.getTool(n)!);
  }

  getTool(name: string): AnyTool | undefined {
    return this.order.includes(name) ? this.inner.getTool(name) : undefined;
  }

  async callTool(name: string, args: unknown, call: ToolCallContext = {}): Promise<ToolOutcome> {
    return this.unexposed(name) ?? this.inner.callTool(name, args, call);
  }

  async needsApproval(
    name: string,
    args: unknown,
    call: ToolCallContext = {},
    config: ApprovalConfig = {},
  ): Promise<ApprovalResult> {
    const refused = this.unexposed(name);
    if (refused && !refused.ok)
      return { status: 'blocked', reason: refused.error.message, error: refused.error };
    return this.inner.needsApproval(name, args, call, config);
  }

  lockKeys(name: string, args: unknown): string[] {
    return this.inner.lockKeys(name, args);
  }

  history(): ChangeRecord[] {
    return this.inner.history();
  }

  undo(): Promise<ToolOutcome> {
    return this.inner.undo();
  }

  /** A refusal for a name this server does not expose (the inner toolset may have it, but it was filtered out). */
  private unexposed(name: string): ToolOutcome | undefined {
    if (this.order.includes(name)) return undefined;
    return {
      ok: false,
      error: toErrorInfo(
        toolError('invalid_argument', `Unknown tool "${name}". Available tools: ${this.order.join(', ')}.`),
      ),
    };
  }
}
