export {
  type AskedApproval,
  type ClaimedApproval,
  DeferredApprovals,
  type DeferredApprovalsOptions,
  type UIHistory,
} from './deferred-approvals.js';
export { JsonFileDeferredStore } from './json-file-store.js';
export { MemoryDeferredStore } from './memory-store.js';
export type { DeferredApprovalRecord, DeferredApprovalStore, SandboxApprovalData } from './types.js';
