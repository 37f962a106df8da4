export {
  type ApprovalBinding,
  type BindingCheck,
  type BindingInput,
  type BindingOptions,
  boundContext,
  createBinding,
  type ExecutingCall,
  verifyBinding,
} from './approval-binding.js';
export {
  type BoundRunner,
  type EngineToolset,
  executeBound,
  runBound,
} from './approval-engine.js';
export { ApprovalMemory, rememberedDecision } from './approval-memory.js';
export { ApprovalToolset, type ApprovalToolsetOptions, type InnerToolset } from './approval-toolset.js';
export {
  type AuditDecision,
  type AuditEvent,
  type AuditSink,
  debugLogger,
  fanOut,
  jsonlAuditLog,
} from './audit-events.js';
export { type CallArguments, captureArguments } from './call-arguments.js';
export { canonicalJson } from './canonical-json.js';
export { type ApprovalConfig, describeCall, genericPayload, needsApprovalFromConfig } from './config.js';
export * from './errors.js';
export * from './payloads.js';
export { approveAll, denyAll, strict, withMemory } from './policies.js';
export * from './types.js';
export { describeUserChanges } from './user-edit.js';
export { rememberScopeOf, validateDecision } from './validate-decision.js';
