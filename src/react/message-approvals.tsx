import type { ReactElement } from 'react';
import type { SandboxApprovalData } from '../approval/deferred/types.js';
import { type AddToolApprovalResponse, ToolApprovalPart, type ToolPartLike } from './tool-approval-part.js';

/** Name of the AI SDK data part (`data-sandbox-approval`) that carries payloads. */
const DATA_PART = 'data-sandbox-approval';

/** The payloads in a message's parts, by tool-call id. */
export function approvalDataOf(parts: ReadonlyArray<{ type: string }>): Map<string, SandboxApprovalData> {
  const out = new Map<string, SandboxApprovalData>();
  for (const p of parts)
    if (p.type === DATA_PART) {
      const data = (p as unknown as { data: SandboxApprovalData }).data;
      out.set(data.toolCallId, data);
    }
  return out;
}

const isToolPart = (p: { type: string }): p is ToolPartLike =>
  (p.type.startsWith('tool-') || p.type === 'dynamic-tool') && 'toolCallId' in p;

/**
 * Whether any message still has a tool call waiting for the person's answer.
 * Keep the composer closed while it does: a new message sent past a pending
 * approval would leave its card unanswerable (the run it belongs to is over).
 */
export function hasPendingApprovals(
  messages: ReadonlyArray<{ parts: ReadonlyArray<{ type: string }> }>,
  options: {
    /**
     * Whether a chat request is in flight. When not, an approved call with no result did not run (its
     * request failed) and counts as pending too: a new message past it would carry a dangling approved
     * call that every later request fails on. Resend it (`sendMessage()`) instead.
     */
    busy?: boolean;
  } = {},
): boolean {
  return messages.some((m) =>
    m.parts.some(
      (p) =>
        isToolPart(p) &&
        (p.state === 'approval-requested' ||
          (options.busy === false && p.state === 'approval-responded' && p.approval?.approved === true)),
    ),
  );
}

/**
 * Every tool call of one useChat message, each paired with its typed payload:
 * pending approvals as cards answered through `addToolApprovalResponse`, the
 * others as their outcome. Render it for assistant messages; use
 * `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`
 * so an answer resumes the run.
 */
export function MessageApprovals(props: {
  message: { parts: ReadonlyArray<{ type: string }> };
  addToolApprovalResponse: AddToolApprovalResponse;
  /** Focus the first pending approval when it appears. */
  autoFocus?: boolean;
  /**
   * Called after each answer, e.g. to focus the composer (the answered card goes
   * away; a next pending card takes focus itself when `autoFocus` is on).
   */
  onAnswered?: () => void;
  /** Whether a chat request is in flight (see ToolApprovalPart): an approved call not run shows Retry. */
  busy?: boolean;
  /** Resends the approvals after a failed request (useChat's `sendMessage()` with no message). */
  onRetry?: () => void;
}): ReactElement {
  const data = approvalDataOf(props.message.parts);
  let first = props.autoFocus ?? true;
  return (
    <>
      {props.message.parts.filter(isToolPart).map((part) => {
        const focus = first && part.state === 'approval-requested';
        if (focus) first = false;
        const d = data.get(part.toolCallId);
        return (
          <ToolApprovalPart
            key={part.toolCallId}
            part={part}
            {...(d ? { data: d } : {})}
            addToolApprovalResponse={props.addToolApprovalResponse}
            autoFocus={focus}
            {...(props.onAnswered ? { onAnswered: props.onAnswered } : {})}
            {...(props.busy !== undefined ? { busy: props.busy } : {})}
            {...(props.onRetry ? { onRetry: props.onRetry } : {})}
          />
        );
      })}
    </>
  );
}
