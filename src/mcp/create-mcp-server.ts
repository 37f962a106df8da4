import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApprovalMemory } from '../approval/approval-memory.js';
import { ApprovalToolset } from '../approval/approval-toolset.js';
import type { AuditSink } from '../approval/audit-events.js';
import { ApprovalAborted } from '../approval/errors.js';
import type { ApprovalCallback, ApprovalConfig, ApprovalDecision } from '../contract/approval-types.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';
import type { FileSystemToolset } from '../tools/filesystem-toolset.js';
import { type ApprovalPolicy, compilePolicy } from './approval-policy.js';
import { approvalElicitation, decisionFromElicitation } from './elicitation.js';
import {
  ApprovalUnavailable,
  type ApproveMode,
  denyFallback,
  policyFallback,
  type TtyFallbackOptions,
  ttyFallback,
} from './fallback-approval.js';
import { followRoots } from './follow-roots.js';
import { McpToolset } from './mcp-toolset.js';
import { outputJsonSchema } from './output-schemas.js';
import type { PayloadTextOptions } from './payload-text.js';
import { keepAlive } from './progress-keepalive.js';
import type { RootsMode } from './roots.js';
import { type McpReviewOptions, submitChangesTool } from './submit-changes.js';
import { toolAnnotations } from './tool-annotations.js';
import { toCallToolResult } from './tool-result.js';

export interface McpApprovalOptions {
  /** Who decides when the client cannot be asked (no elicitation): default 'deny'. */
  mode?: ApproveMode;
  /** Rules applied before anyone is asked (first match decides); required for mode 'policy'. */
  policy?: ApprovalPolicy;
  /** A custom decider used instead of `mode` when the client cannot be asked. */
  approve?: ApprovalCallback;
  /** Ask through MCP elicitation when the client supports it (default true). */
  elicitation?: boolean;
  /** How long to wait for the person to answer an elicitation (default 30 minutes). */
  elicitationTimeoutMs?: number;
  /** How the payload is laid out in the elicitation message. */
  payloadText?: PayloadTextOptions;
  /** Per-tool approval config, e.g. `{ read_file: { preApproved: true } }`. */
  config?: ApprovalConfig;
  memory?: ApprovalMemory;
  onEvent?: AuditSink;
  /** For mode 'tty': which terminal device to open. */
  tty?: TtyFallbackOptions;
}

export interface McpServerOptions {
  /** Approval options, or just the callback that decides when the client cannot be asked. */
  approval?: McpApprovalOptions | ApprovalCallback;
  /** Tools to expose (default: all of the toolset's tools plus read_many_files and create_directory). */
  tools?: readonly string[];
  name?: string;
  version?: string;
  /**
   * While a call runs (mostly: while the person decides), a `notifications/progress` is sent this often when
   * the client asked for progress, so clients that reset their timeout on progress keep waiting (default 10 s).
   */
  progressIntervalMs?: number;
  /** Where unexpected errors are logged in full (default: stderr; stdout is the protocol). */
  log?: (line: string) => void;
  /**
   * The client's roots: 'ignore' them (default), or 'narrow': the mounts are cut down to
   * their intersection with the roots (never widened), and again whenever the roots change.
   */
  roots?: RootsMode;
  /** Review mode: writes are staged and the model calls `submit_changes` to have the person review them all. */
  review?: McpReviewOptions | boolean;
}

const DEFAULT_ELICITATION_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_PROGRESS_INTERVAL_MS = 10_000;

/**
 * An MCP server (official SDK, low-level `Server`) over a FileSystemToolset: the
 * toolset's tools with their names, descriptions and input schemas, every call
 * through the approval layer. Approvals are asked by elicitation when the client
 * supports it, otherwise decided by the configured mode. Tool failures are
 * `isError` results with the stable error code, never protocol errors.
 * Connect it to a transport: `await server.connect(new StdioServerTransport())`.
 */
export function createMcpServer(toolset: FileSystemToolset, options: McpServerOptions = {}): Server {
  const approval: McpApprovalOptions =
    typeof options.approval === 'function' ? { approve: options.approval } : (options.approval ?? {});
  const mode = approval.mode ?? 'deny';
  if (mode === 'policy' && !approval.policy && !approval.approve) {
    throw new TypeError("createMcpServer: approval mode 'policy' needs `approval.policy`.");
  }
  const tools = new McpToolset(toolset, options.tools);
  let review: ReturnType<typeof submitChangesTool> | undefined;
  const memory = approval.memory ?? new ApprovalMemory();
  const server = new Server(
    { name: options.name ?? 'sandbox-approval', version: options.version ?? '0.1.0' },
    // listChanged: the tool list is fixed today, but clients learn they may be told when it changes.
    { capabilities: { tools: { listChanged: true } }, instructions: instructionsFor(toolset) },
  );

  if (options.review)
    review = submitChangesTool(server, toolset, options.review === true ? {} : options.review);
  const fallback: ApprovalCallback =
    approval.approve ??
    (mode === 'tty'
      ? ttyFallback({ ...approval.tty, memory })
      : mode === 'policy'
        ? policyFallback()
        : denyFallback());
  const policy = approval.policy ? compilePolicy(approval.policy) : undefined;
  const signals = new Map<string, AbortSignal>();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  const elicit = async (request: Parameters<ApprovalCallback>[0]): Promise<ApprovalDecision> => {
    const signal = request.toolCallId ? signals.get(request.toolCallId) : undefined;
    try {
      const result = await server.elicitInput(approvalElicitation(request, approval.payloadText), {
        timeout: approval.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      });
      return decisionFromElicitation(result);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        approved: false,
        note: `The approval request could not be completed (${why}), so nothing was changed. Ask the user how to proceed.`,
      };
    }
  };

  // Notes given with an approval, by call: the approval layer passes only denial notes to the model.
  const approvalNotes = new Map<string, string>();
  const approve: ApprovalCallback = async (request) => {
    const verdict = policy?.(request);
    if (verdict?.decision === 'approve') return { approved: true };
    if (verdict?.decision === 'deny') return { approved: false, note: verdict.note };
    const canElicit = approval.elicitation !== false && !!server.getClientCapabilities()?.elicitation?.form;
    const decision = await (canElicit ? elicit(request) : fallback(request));
    if (decision?.approved && decision.note && request.toolCallId)
      approvalNotes.set(request.toolCallId, decision.note);
    return decision;
  };

  const gated = new ApprovalToolset(tools, {
    approve,
    memory,
    ...(approval.config ? { config: approval.config } : {}),
    ...(approval.onEvent ? { onEvent: approval.onEvent } : {}),
  });

  const rootsReady =
    options.roots === 'narrow' ? followRoots(server, tools, toolset, log) : () => Promise.resolve();

  let listed: Tool[] | undefined;
  let callCount = 0;
  server.setRequestHandler(ListToolsRequestSchema, () => {
    listed ??= tools.listTools().map((t) => {
      const outputSchema = outputJsonSchema(t.name);
      return {
        name: t.name,
        description: t.description,
        inputSchema: inputJsonSchema(t.inputSchema),
        ...(outputSchema ? { outputSchema } : {}),
        annotations: toolAnnotations(t.name),
      };
    });
    return { tools: review ? [...listed, review.tool] : listed };
  });

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = req.params;
    if (review && name === review.tool.name) return review.call(args);
    // Per call, never from the JSON-RPC id: ids 1 and "1" may be in flight together and must not
    // share a cancellation signal or an approval note.
    const toolCallId = `mcp-call-${++callCount}`;
    signals.set(toolCallId, extra.signal);
    const stopProgress = keepAlive(extra, options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS);
    try {
      // With roots opted in, no call runs before the sandbox is narrowed to them.
      await rootsReady();
      const outcome = await runGuarded(() => gated.callTool(name, args ?? {}, { toolCallId }), log);
      return toCallToolResult(name, outcome, approvalNotes.get(toolCallId));
    } finally {
      stopProgress();
      signals.delete(toolCallId);
      approvalNotes.delete(toolCallId);
    }
  });

  return server;
}

/** The approval layer throws for a refusal on the server's behalf or a quit at the terminal: both become results. */
async function runGuarded(
  call: () => Promise<ToolOutcome>,
  log: (line: string) => void,
): Promise<ToolOutcome> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApprovalUnavailable)
      return { ok: false, error: { code: 'approval_blocked', message: error.message } };
    if (error instanceof ApprovalAborted) {
      return {
        ok: false,
        error: {
          code: 'approval_denied',
          message:
            'The user quit at the approval prompt, so nothing was changed. Stop making changes and wait for the user.',
        },
      };
    }
    // In full for the operator only: an unexpected error's message may name host paths.
    log(
      `sandbox-approval: unexpected error in a tool call: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return {
      ok: false,
      error: {
        code: 'io_error',
        message:
          'The call failed unexpectedly (see the server log); nothing was changed. Try again or tell the user.',
      },
    };
  }
}

/**
 * Tool input schema as MCP wants it: a JSON Schema object (zod 4's own conversion, input side).
 * Declared closed (additionalProperties: false) for clients and models; the server itself
 * receives any extra key unchanged and the toolset refuses it by name.
 */
function inputJsonSchema(schema: z.ZodType): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _drop, ...rest } = json;
  return { ...rest, type: 'object', additionalProperties: false } as Tool['inputSchema'];
}

/** Server instructions: what the model can reach (virtual paths only) and how changes are approved. */
function instructionsFor(toolset: FileSystemToolset): string {
  const read = toolset.sandbox.readableRoots;
  const write = toolset.sandbox.writableRoots;
  return [
    'Sandboxed file tools. Paths are virtual; only these roots exist.',
    `Readable: ${read.join(', ') || '(none)'}. Writable: ${write.join(', ') || '(none: read-only)'}.`,
    'Changes may need the user’s approval; a denied call returns approval_denied with the user’s note. Read a file first and pass its sha256 as base_sha256 when you change it.',
  ].join(' ');
}
