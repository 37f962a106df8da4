/**
 * `sandbox-approval/react`: approval components for AI SDK UI. They render
 * each payload type as the terminal UI does and answer useChat's approval
 * parts with `addToolApprovalResponse`. React is an optional peer dependency.
 */
export type { SandboxApprovalData } from '../approval/deferred/types.js';
export { type ApprovalAnswer, ApprovalCard, type ApprovalCardProps } from './approval-card.js';
export { ChangeSetReview, type ChangeSetReviewProps, changeSetReviewCss } from './change-set-review.js';
export { DiffView } from './diff-view.js';
export { FilePreview } from './file-preview.js';
export { approvalDataOf, hasPendingApprovals, MessageApprovals } from './message-approvals.js';
export { PayloadView, showPayload } from './payload-view.js';
export { SandboxApprovalStyles, sandboxApprovalCss } from './styles.js';
export { type AddToolApprovalResponse, ToolApprovalPart, type ToolPartLike } from './tool-approval-part.js';
