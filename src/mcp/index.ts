export {
  type ApprovalPolicy,
  ApprovalPolicySchema,
  compilePolicy,
  type PolicyVerdict,
} from './approval-policy.js';
export { createMcpServer, type McpApprovalOptions, type McpServerOptions } from './create-mcp-server.js';
export {
  approvalElicitation,
  CANCELLED_NOTE,
  decisionFromElicitation,
  ELICITATION_CHOICES,
  type ElicitationChoice,
} from './elicitation.js';
export {
  APPROVE_MODES,
  ApprovalUnavailable,
  type ApproveMode,
  denyFallback,
  policyFallback,
  type TtyFallbackOptions,
  ttyFallback,
} from './fallback-approval.js';
export { McpToolset } from './mcp-toolset.js';
export { type PayloadTextOptions, payloadText } from './payload-text.js';
export {
  decisionsFromReview,
  type McpReviewOptions,
  reviewElicitation,
  submitChangesTool,
} from './submit-changes.js';
export { toCallToolResult } from './tool-result.js';
