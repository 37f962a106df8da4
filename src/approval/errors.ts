import type { ApprovalDecision } from './types.js';

/** Base of approval-layer exceptions. */
export class ApprovalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The user said no. Carries the decision (and its note for the model). */
export class ApprovalDenied extends ApprovalError {
  constructor(
    readonly decision: ApprovalDecision,
    message = decision.note ? `Denied by the user: ${decision.note}` : 'Denied by the user.',
  ) {
    super(message);
  }
}

/** A policy refused the call before anyone was asked. */
export class ApprovalBlocked extends ApprovalError {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The user quit the run (e.g. "quit" at the prompt or Ctrl-C). Ends the whole run. */
export class ApprovalAborted extends ApprovalError {
  constructor(message = 'The user aborted the run at an approval prompt.') {
    super(message);
  }
}
