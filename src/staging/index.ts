export {
  type AppliedChangeSet,
  type ApplyResult,
  applyChangeSet,
  type FileOutcome,
  type FileOutcomeKind,
  undoChangeSet,
} from './apply-change-set.js';
export type { StepHook } from './apply-group.js';
export {
  type BaseSide,
  buildChangeSet,
  type ChangeSet,
  type ChangeSetFile,
  type ChangeStatus,
  type FileSide,
  sideBytes,
} from './change-set.js';
export {
  decideAll,
  type FileDecision,
  FileDecisionSchema,
  type ReviewDecisions,
  ReviewDecisionsSchema,
} from './decisions.js';
export { hunkDiff } from './hunk-diff.js';
export { applyHunks, computeHunks, type Hunk, revertHunks, splitLines } from './hunks.js';
export { type RecoveryReport, recoverChangeSets, recoverChangeSetsSync } from './recover.js';
export { type Reviewer, StagingArea } from './staging-area.js';
export {
  SUBMIT_CHANGES_DESCRIPTION,
  SUBMIT_CHANGES_NAME,
  SubmitChangesInput,
  submitChanges,
} from './submit-changes.js';
export { summarize } from './summary.js';
