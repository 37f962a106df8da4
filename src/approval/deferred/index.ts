export {
  type AskedApproval,
  type ClaimedApproval,
  DeferredApprovals,
  type DeferredApprovalsOptions,
} from './deferred-approvals.js';
export { JsonFileDeferredStore } from './json-file-store.js';
export { MemoryDeferredStore } from './memory-store.js';
export type {
  DeferredApprovalRecord,
  DeferredApprovalStore,
  DeferredEntry,
  DeferredTombstone,
  SandboxApprovalData,
} from './types.js';
