import fs from 'node:fs';
import type { ApprovalPayloadType } from '../contract/payloads.js';

export type AuditDecision = 'approved' | 'denied' | 'remembered' | 'pre_approved' | 'blocked' | 'aborted';

/** One step of a call. Never carries file contents or arguments' text, only what happened to what. */
export interface AuditEvent {
  type: 'tool_call' | 'approval_requested' | 'approval_decided' | 'tool_result';
  toolName: string;
  toolCallId?: string;
  /** Virtual path the call concerns, when known. */
  path?: string;
  payloadType?: ApprovalPayloadType;
  decision?: AuditDecision;
  /** Scope remembered with the decision, if any. */
  remember?: string;
  note?: string;
  ok?: boolean;
  code?: string;
  durationMs?: number;
  timestamp: string;
}

export type AuditSink = (event: AuditEvent) => void;

/** Appends one JSON line per event to `file` (created if missing). */
export function jsonlAuditLog(file: string): AuditSink {
  return (event) => {
    fs.appendFileSync(file, `${JSON.stringify(event)}\n`);
  };
}

/** Every call and result as one JSON line on stderr (or another stream), for debugging a run. */
export function debugLogger(stream: NodeJS.WritableStream = process.stderr): AuditSink {
  return (event) => {
    stream.write(`[sandbox-approval] ${JSON.stringify(event)}\n`);
  };
}

/** Calls every sink; a failing sink never breaks the tool call. */
export function fanOut(...sinks: Array<AuditSink | undefined>): AuditSink {
  return (event) => {
    for (const sink of sinks) {
      try {
        sink?.(event);
      } catch {
        // Auditing must not change the outcome of a call.
      }
    }
  };
}

/** The `tool_result` event of a call that started at `started` (performance.now()). */
export function toolResultEvent(
  outcome: { ok: true } | { ok: false; error: { code: string } },
  started: number,
  path?: string,
): Omit<AuditEvent, 'toolName' | 'toolCallId' | 'timestamp'> {
  return {
    type: 'tool_result',
    ...(path ? { path } : {}),
    ok: outcome.ok,
    ...(outcome.ok ? {} : { code: outcome.error.code }),
    durationMs: Math.round(performance.now() - started),
  };
}
