/// <reference lib="dom" />
import { type KeyboardEvent, type ReactElement, useEffect, useId, useRef, useState } from 'react';
import type { ApprovalPayload } from '../contract/payloads.js';
import { PayloadView } from './payload-view.js';

/** The person's answer: approve, or deny with an optional note the model will read. */
export interface ApprovalAnswer {
  approved: boolean;
  reason?: string;
}

export interface ApprovalCardProps {
  payload: ApprovalPayload;
  onAnswer: (answer: ApprovalAnswer) => void;
  /** Focus the card when it appears (the first pending approval on a page). */
  autoFocus?: boolean;
  /** Disables the buttons (e.g. while the answer is being sent). */
  disabled?: boolean;
}

/**
 * One pending approval: the payload as the terminal UI shows it, then Approve
 * and Deny (with a note). Keyboard: Tab/Enter on the buttons, or on the focused
 * card `a` approves and `d` opens the note; in the note Enter denies (Shift+Enter
 * for a new line) and Escape goes back.
 */
export function ApprovalCard(props: ApprovalCardProps): ReactElement {
  const [denying, setDenying] = useState(false);
  const [note, setNote] = useState('');
  const card = useRef<HTMLDivElement>(null);
  const noteBox = useRef<HTMLTextAreaElement>(null);
  const noteId = useId();
  const titleId = useId();
  useEffect(() => {
    if (props.autoFocus) card.current?.focus();
  }, [props.autoFocus]);
  useEffect(() => {
    if (denying) noteBox.current?.focus();
  }, [denying]);

  const approve = () => props.onAnswer({ approved: true });
  const deny = () => {
    const reason = note.trim();
    props.onAnswer(reason ? { approved: false, reason } : { approved: false });
  };
  const onCardKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (props.disabled || e.target !== card.current || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'a') {
      e.preventDefault();
      approve();
    } else if (e.key === 'd') {
      e.preventDefault();
      setDenying(true);
    }
  };
  const onNoteKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      deny();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setDenying(false);
      card.current?.focus();
    }
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable group with its own key handling, not a fieldset
    <div
      ref={card}
      className="sa-card"
      role="group"
      aria-labelledby={titleId}
      tabIndex={-1}
      onKeyDown={onCardKey}
      data-testid="sandbox-approval"
    >
      <div id={titleId} className="sa-heading">
        Approval needed <kbd>a</kbd> approve · <kbd>d</kbd> deny
      </div>
      <PayloadView payload={props.payload} />
      {denying ? (
        <div className="sa-deny">
          <label htmlFor={noteId}>Why not? (the agent reads this)</label>
          <textarea
            id={noteId}
            ref={noteBox}
            value={note}
            rows={2}
            onChange={(e) => setNote(e.target.value)}
            onKeyDown={onNoteKey}
            disabled={props.disabled}
          />
          <div className="sa-actions">
            <button
              type="button"
              className="sa-button sa-deny-button"
              onClick={deny}
              disabled={props.disabled}
            >
              Deny
            </button>
            <button
              type="button"
              className="sa-button"
              onClick={() => setDenying(false)}
              disabled={props.disabled}
            >
              Back
            </button>
          </div>
        </div>
      ) : (
        <div className="sa-actions">
          <button
            type="button"
            className="sa-button sa-approve-button"
            onClick={approve}
            disabled={props.disabled}
          >
            Approve
          </button>
          <button
            type="button"
            className="sa-button sa-deny-button"
            onClick={() => setDenying(true)}
            disabled={props.disabled}
          >
            Deny…
          </button>
        </div>
      )}
    </div>
  );
}
