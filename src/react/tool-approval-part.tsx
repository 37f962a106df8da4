import { type ReactElement, useState } from 'react';
import type { SandboxApprovalData } from '../approval/deferred/types.js';
import type { ApprovalPayload } from '../contract/payloads.js';
import { type ApprovalAnswer, ApprovalCard } from './approval-card.js';
import { visibleText } from './visible-text.js';

/** The fields of an AI SDK tool UI part this package reads (structural: no `ai` import in src/). */
export interface ToolPartLike {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
}

/** useChat's `addToolApprovalResponse`. */
export type AddToolApprovalResponse = (response: {
  id: string;
  approved: boolean;
  reason?: string;
}) => void | PromiseLike<void>;

const toolNameOf = (part: ToolPartLike) =>
  part.type.startsWith('tool-') ? part.type.slice(5) : ((part as { toolName?: string }).toolName ?? 'tool');

/**
 * One tool call of a chat message: while it waits for approval, the typed
 * payload (from the `data-sandbox-approval` part) with Approve / Deny; after,
 * what happened — approved and running, denied with the note, the result, or
 * the error code the tool returned (e.g. `stale_approval`: nothing was changed).
 */
export function ToolApprovalPart(props: {
  part: ToolPartLike;
  data?: SandboxApprovalData;
  addToolApprovalResponse: AddToolApprovalResponse;
  autoFocus?: boolean;
  /** After the answer was handed to useChat (e.g. to give focus back to the composer). */
  onAnswered?: () => void;
  /**
   * Whether a chat request is in flight (useChat's status `submitted` or `streaming`). When false, an
   * approved call without a result did not run (the request failed): it is shown so, with Retry.
   */
  busy?: boolean;
  /** Resends the approval (e.g. useChat's `sendMessage()` with no message). */
  onRetry?: () => void;
}): ReactElement | null {
  const { part, data } = props;
  const [sent, setSent] = useState(false);
  const name = toolNameOf(part);
  if (part.state === 'approval-requested' && part.approval) {
    const approvalId = part.approval.id;
    const payload: ApprovalPayload = data?.payload ?? {
      type: 'generic',
      description: `${name} (the typed preview is not available; these are the raw arguments)`,
      path: '',
      mount: '',
      toolName: name,
      args: part.input,
    };
    const answer = async (a: ApprovalAnswer) => {
      setSent(true);
      // Focus leaves the card before it unmounts, so it never falls to <body>.
      props.onAnswered?.();
      await props.addToolApprovalResponse({ id: approvalId, ...a });
    };
    return (
      <ApprovalCard
        payload={payload}
        onAnswer={answer}
        disabled={sent}
        autoFocus={props.autoFocus ?? false}
      />
    );
  }
  const where = data ? ` ${visibleText(data.payload.path)}` : '';
  switch (part.state) {
    case 'approval-responded':
      if (part.approval?.approved && props.busy === false)
        return (
          <Status kind="error" code="not_run">
            Approved {name}
            {where}, but it did not run: the request failed. Nothing was changed by it.{' '}
            {props.onRetry ? (
              <button type="button" className="sa-retry" onClick={props.onRetry}>
                Retry
              </button>
            ) : null}
          </Status>
        );
      return (
        <Status kind={part.approval?.approved ? 'pending' : 'denied'}>
          {part.approval?.approved ? `Approved ${name}${where}; running…` : `Denied ${name}${where}`}
        </Status>
      );
    case 'output-denied':
      return (
        <Status kind="denied">
          Denied {name}
          {where}
          {part.approval?.reason ? `: “${visibleText(part.approval.reason)}”` : ''}
        </Status>
      );
    case 'output-error':
      return (
        <Status kind="error">{visibleText(`${name} failed: ${part.errorText ?? 'unknown error'}`)}</Status>
      );
    case 'output-available':
      return <OutcomeStatus name={name} output={part.output} />;
    default:
      return <Status kind="pending">{name}…</Status>;
  }
}

/** A tool's ToolOutcome: ok with its path, or the error code and message (nothing was changed). */
function OutcomeStatus({ name, output }: { name: string; output: unknown }): ReactElement {
  const o = output as { ok?: boolean; data?: { path?: string }; error?: { code: string; message: string } };
  if (o && o.ok === false && o.error)
    return (
      <Status kind="error" code={o.error.code}>
        <strong>{visibleText(o.error.code)}</strong>: {visibleText(o.error.message)}
      </Status>
    );
  const path = o?.data?.path ? ` ${visibleText(o.data.path)}` : '';
  return (
    <Status kind="done">
      ✓ {name}
      {path}
    </Status>
  );
}

function Status(props: { kind: string; code?: string; children: React.ReactNode }): ReactElement {
  return (
    <div
      className={`sa-status sa-status-${props.kind}`}
      data-testid="sandbox-tool-status"
      {...(props.code ? { 'data-error-code': props.code } : {})}
      role={props.kind === 'error' ? 'alert' : 'status'}
    >
      {props.children}
    </div>
  );
}
