/**
 * `sandbox-approval/terminal`: the blocking terminal approval UI, and the
 * renderer it draws payloads with (for a UI of your own).
 */
export type { LineSource } from './diff-view.js';
export { renderPayload } from './render-payload.js';
export type { Rendered } from './rendered.js';
export {
  CANCELLED_REVIEW_NOTE,
  NO_TERMINAL_REVIEW_NOTE,
  type TerminalReviewerOptions,
  terminalReviewer,
} from './review/terminal-reviewer.js';
export { createStyle, type Style, stripAnsi } from './style.js';
export { NON_TTY_NOTE, type TerminalApproverOptions, terminalApprover } from './terminal-approver.js';
