import {
  createUIMessageStreamResponse,
  type UIDataTypes,
  type UIMessage,
  type UIMessageChunk,
  type UITools,
} from 'ai';
import type { DeferredApprovals } from '../src/approval/deferred/deferred-approvals.js';
import type { SandboxApprovalData } from '../src/approval/deferred/types.js';

/** Name of the data part that carries an approval's typed payload (`data-sandbox-approval` in a message). */
export const SANDBOX_APPROVAL_DATA = 'sandbox-approval';

export type { SandboxApprovalData };

/** Data part types to merge into your UIMessage type: `UIMessage<Meta, SandboxDataParts & YourParts>`. */
export type SandboxDataParts = { [SANDBOX_APPROVAL_DATA]: SandboxApprovalData };

/** A UIMessage carrying sandbox approval payloads. */
export type SandboxUIMessage<METADATA = unknown, TOOLS extends UITools = UITools> = UIMessage<
  METADATA,
  SandboxDataParts,
  TOOLS
>;

/** The data part as it appears in `message.parts`. */
export interface SandboxApprovalPart {
  type: `data-${typeof SANDBOX_APPROVAL_DATA}`;
  id?: string;
  data: SandboxApprovalData;
}

type Chunk = UIMessageChunk<unknown, UIDataTypes>;

/**
 * Passes a UI message stream through and, right after each
 * `tool-approval-request`, adds a `data-sandbox-approval` part with the typed
 * payload recorded for that call (the diff, the new file, the overwrite …).
 * Calls the browser denied are settled (tombstoned: never approvable later).
 * Pass the conversation's view (`deferred.forConversation(chatId)`). Works on `result.toUIMessageStream()` and inside
 * `createUIMessageStream` (`writer.merge(withApprovalPayloads(…))`).
 */
export function withApprovalPayloads<CHUNK extends Chunk>(
  stream: ReadableStream<CHUNK>,
  deferred: DeferredApprovals,
  /** The request's incoming history: its denials are settled before the first chunk passes. */
  messages?: ReadonlyArray<unknown>,
): ReadableStream<CHUNK> {
  return stream.pipeThrough(
    new TransformStream<CHUNK, CHUNK>({
      async start() {
        if (messages) await deferred.settleDenials(messages);
      },
      async transform(chunk, controller) {
        controller.enqueue(chunk);
        if (chunk.type === 'tool-approval-request') {
          const part = await approvalPart(deferred, chunk.toolCallId, chunk.approvalId);
          if (part) controller.enqueue(part as unknown as CHUNK);
        } else if (chunk.type === 'tool-output-denied') {
          await deferred.deny(chunk.toolCallId);
        }
      },
    }),
  );
}

/** The data chunk for one pending approval; undefined when nothing (valid) is recorded for the call. */
export async function approvalPart(
  deferred: DeferredApprovals,
  toolCallId: string,
  approvalId: string,
): Promise<SandboxApprovalPart | undefined> {
  const record = await deferred.shown(toolCallId);
  if (!record) return undefined;
  return {
    type: `data-${SANDBOX_APPROVAL_DATA}`,
    id: `sandbox-approval-${toolCallId}`,
    data: {
      toolCallId,
      toolName: record.toolName,
      approvalId,
      payload: record.payload,
      expiresAt: record.expiresAt,
    },
  };
}

/**
 * `result.toUIMessageStreamResponse()` with the approval payloads added: the
 * one-liner for a route handler.
 */
export function sandboxApprovalResponse(
  result: { toUIMessageStream(options?: { originalMessages?: UIMessage[] }): ReadableStream<unknown> },
  options: {
    deferred: DeferredApprovals;
    originalMessages?: UIMessage[];
    headers?: Record<string, string>;
    status?: number;
  },
): Response {
  const { deferred, originalMessages, ...init } = options;
  const stream = result.toUIMessageStream(originalMessages ? { originalMessages } : undefined);
  return createUIMessageStreamResponse({
    stream: withApprovalPayloads(stream as ReadableStream<Chunk>, deferred, originalMessages),
    ...init,
  });
}

/** The payloads in a message, by tool-call id (for renderers that pair them with tool parts). */
export function approvalPayloadsOf(message: {
  parts: ReadonlyArray<{ type: string }>;
}): Map<string, SandboxApprovalData> {
  const out = new Map<string, SandboxApprovalData>();
  for (const part of message.parts)
    if (part.type === `data-${SANDBOX_APPROVAL_DATA}`) {
      const data = (part as SandboxApprovalPart).data;
      out.set(data.toolCallId, data);
    }
  return out;
}
