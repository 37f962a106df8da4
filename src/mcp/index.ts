/** `sandbox-approval/mcp`: the file tools as an MCP server, approved through elicitation or a fallback. */
export { type ApprovalPolicy, ApprovalPolicySchema } from './approval-policy.js';
export { createMcpServer, type McpApprovalOptions, type McpServerOptions } from './create-mcp-server.js';
export { APPROVE_MODES, type ApproveMode, type TtyFallbackOptions } from './fallback-approval.js';
export { type PayloadTextOptions, payloadText } from './payload-text.js';
export type { RootsMode } from './roots.js';
export {
  MESSAGE_TOO_LARGE,
  messageLimitFor,
  type SizedStdioOptions,
  SizedStdioServerTransport,
} from './sized-stdio-transport.js';
export type { McpReviewOptions } from './submit-changes.js';
