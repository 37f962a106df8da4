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
export { narrowToRoots, ROOTS_MODES, type RootsMode } from './roots.js';
export {
  FRAMING_BYTES,
  JSON_ESCAPE_FACTOR,
  MESSAGE_TOO_LARGE,
  messageLimitFor,
  type SizedStdioOptions,
  SizedStdioServerTransport,
} from './sized-stdio-transport.js';
export { toCallToolResult } from './tool-result.js';
