import type { InnerToolset } from '../approval/approval-toolset.js';
import type { ApprovalConfig } from '../approval/config.js';
import type { ApprovalResult } from '../approval/types.js';
import { LineHashCache } from '../edit/line-hash-cache.js';
import { InvalidArgumentError } from '../sandbox/errors.js';
import type { ChangeRecord } from '../tools/change-journal.js';
import { createDirectory } from '../tools/create-directory.js';
import type { FileSystemToolset } from '../tools/filesystem-toolset.js';
import { readManyFiles } from '../tools/read-many-files.js';
import { toErrorInfo, toolError } from '../tools/tool-error.js';
import type { SandboxTool, ToolCallContext, ToolContext, ToolOutcome } from '../tools/types.js';

// biome-ignore lint/suspicious/noExplicitAny: tools of different input/output types live in one registry
type AnyTool = SandboxTool<any, any>;

/** Tools the MCP server adds when the toolset does not have them (what users of the reference server rely on). */
export const MCP_EXTRA_TOOLS: readonly AnyTool[] = [readManyFiles, createDirectory];

/**
 * The toolset as the MCP server exposes it: the FileSystemToolset's tools plus
 * read_many_files and create_directory, run on the same sandbox, version counter,
 * locks and limits. Implements the approval layer's InnerToolset.
 */
export class McpToolset implements InnerToolset {
  readonly inner: FileSystemToolset;
  private readonly extras = new Map<string, AnyTool>();
  private readonly order: string[];
  private readonly anchors = new Map<string, string>();
  private readonly lineHashes = new LineHashCache();

  constructor(inner: FileSystemToolset, names?: readonly string[]) {
    this.inner = inner;
    for (const tool of MCP_EXTRA_TOOLS) if (!inner.getTool(tool.name)) this.extras.set(tool.name, tool);
    const all = [...inner.listTools().map((t) => t.name), ...this.extras.keys()];
    const unknown = (names ?? []).filter((n) => !all.includes(n));
    if (unknown.length > 0) {
      throw new InvalidArgumentError(
        `Unknown tool name${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}. Available tools: ${all.join(', ')}.`,
      );
    }
    this.order = names ? all.filter((n) => names.includes(n)) : all;
  }

  listTools(): AnyTool[] {
    return this.order.map((n) => this.getTool(n)!);
  }

  getTool(name: string): AnyTool | undefined {
    if (!this.order.includes(name)) return undefined;
    return this.inner.getTool(name) ?? this.extras.get(name);
  }

  async callTool(name: string, args: unknown, call: ToolCallContext = {}): Promise<ToolOutcome> {
    const extra = this.extraTool(name);
    if (!extra) return this.known(name) ?? this.inner.callTool(name, args, call);
    try {
      const input = parseArgs(extra, args);
      return { ok: true, data: await extra.execute(input, this.context(call)) };
    } catch (error) {
      return { ok: false, error: toErrorInfo(error) };
    }
  }

  async needsApproval(
    name: string,
    args: unknown,
    call: ToolCallContext = {},
    config: ApprovalConfig = {},
  ): Promise<ApprovalResult> {
    const extra = this.extraTool(name);
    if (!extra) {
      const refused = this.known(name);
      if (refused && !refused.ok)
        return { status: 'blocked', reason: refused.error.message, error: refused.error };
      return this.inner.needsApproval(name, args, call, config);
    }
    let result: ApprovalResult;
    try {
      result = await extra.needsApproval(parseArgs(extra, args), this.context(call));
    } catch (error) {
      const info = toErrorInfo(error);
      return { status: 'blocked', reason: info.message, error: info };
    }
    if (result.status === 'needs_approval' && config[name]?.preApproved) return { status: 'pre_approved' };
    return result;
  }

  history(): ChangeRecord[] {
    return this.inner.history();
  }

  undo(): Promise<ToolOutcome> {
    return this.inner.undo();
  }

  private extraTool(name: string): AnyTool | undefined {
    return this.order.includes(name) ? this.extras.get(name) : undefined;
  }

  /** A refusal for a name this server does not expose (the inner toolset may have it, but it was filtered out). */
  private known(name: string): ToolOutcome | undefined {
    if (this.order.includes(name)) return undefined;
    return {
      ok: false,
      error: toErrorInfo(
        toolError('invalid_argument', `Unknown tool "${name}". Available tools: ${this.order.join(', ')}.`),
      ),
    };
  }

  private context(call: ToolCallContext): ToolContext {
    const t = this.inner;
    return {
      ...call,
      sandbox: t.sandbox,
      state: t.state,
      journal: t.journal,
      writers: t.writers,
      anchors: this.anchors,
      lineHashes: this.lineHashes,
      limits: t.limits,
    };
  }
}

function parseArgs(tool: AnyTool, args: unknown): unknown {
  const parsed = tool.inputSchema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map(
    (i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`,
  );
  throw toolError('invalid_argument', `Invalid arguments for ${tool.name}: ${fields.join('; ')}.`, {
    details: { fields },
  });
}
