export { fileBody, renderScreen } from './render-review.js';
export {
  decisionsOf,
  type FileChoice,
  initialState,
  markOf,
  type ReviewState,
  setAll,
} from './review-state.js';
export {
  CANCELLED_REVIEW_NOTE,
  NO_TERMINAL_REVIEW_NOTE,
  type TerminalReviewerOptions,
  terminalReviewer,
} from './terminal-reviewer.js';
