/**
 * `sandbox-approval`: the sandbox, the file tools and the approval layer. Each
 * name is listed on purpose; helpers the library uses internally (locks, atomic
 * writes, binding records) stay unexported so they can change freely.
 */
export type { ApprovalBinding } from './approval/approval-binding.js';
export { ApprovalMemory } from './approval/approval-memory.js';
export {
  ApprovalToolset,
  type ApprovalToolsetOptions,
  type InnerToolset,
} from './approval/approval-toolset.js';
export {
  type AuditDecision,
  type AuditEvent,
  type AuditSink,
  debugLogger,
  fanOut,
  jsonlAuditLog,
} from './approval/audit-events.js';
export { combineToolsets } from './approval/combine-toolsets.js';
export { describeCall, genericPayload } from './approval/config.js';
export {
  type DeferredApprovalRecord,
  type DeferredApprovalStore,
  DeferredApprovals,
  type DeferredApprovalsOptions,
  type DeferredEntry,
  type DeferredTombstone,
  JsonFileDeferredStore,
  MemoryDeferredStore,
  type SandboxApprovalData,
} from './approval/deferred/index.js';
export { ApprovalAborted } from './approval/errors.js';
export {
  type ApprovalDescription,
  type GatedTool,
  type GatedToolsetOptions,
  gatedToolset,
} from './approval/gated-toolset.js';
export { approveAll, denyAll, strict, withMemory } from './approval/policies.js';
export type { ToolDescriptor, Toolset } from './approval/toolset.js';
export {
  type ApprovalCallback,
  type ApprovalConfig,
  type ApprovalDecision,
  type ApprovalMemoryView,
  type ApprovalRequest,
  ApprovalResult,
  type BlockedError,
  type RememberedApproval,
  type RememberScope,
  type RememberScopeName,
} from './contract/approval-types.js';
export type { ChangeRecord } from './contract/change-record.js';
export {
  ERROR_CODES,
  type ErrorCode,
  SandboxConfigError,
  SandboxError,
  type SandboxErrorOptions,
} from './contract/errors.js';
export {
  type ApprovalPayload,
  ApprovalPayloadSchema,
  type ApprovalPayloadType,
  type CopyPayload,
  type DeletePayload,
  type EditPayload,
  type GenericPayload,
  type LinesEditPayload,
  type ListPayload,
  type MovePayload,
  type PatchPayload,
  type ReadPayload,
  type WritePayload,
} from './contract/payloads.js';
export type { ToolCallContext } from './contract/tool-call-context.js';
export type { ToolErrorInfo, ToolOutcome } from './contract/tool-outcome.js';
export type { Mount, MountOptions, SandboxConfigInput } from './sandbox/config.js';
export { type DeriveOptions, Sandbox, type SandboxOptions } from './sandbox/sandbox.js';
export {
  type AppliedChangeSet,
  type ApplyResult,
  applyChangeSet,
  type FileOutcome,
  type FileOutcomeKind,
  undoChangeSet,
} from './staging/apply-change-set.js';
export type { ChangeSet, ChangeSetFile, ChangeStatus } from './staging/change-set.js';
export {
  decideAll,
  type FileDecision,
  FileDecisionSchema,
  type ReviewDecisions,
  ReviewDecisionsSchema,
} from './staging/decisions.js';
export type { Hunk } from './staging/hunks.js';
export { type RecoveryReport, recoverChangeSets } from './staging/recover.js';
export { type Reviewer, StagingArea } from './staging/staging-area.js';
export { summarize } from './staging/summary.js';
export type { CreateDirectoryInput, CreateDirectoryOutput } from './tools/create-directory.js';
export type { DryRunOutput } from './tools/dry-run.js';
export type { EditFileInput, EditFileOutput } from './tools/edit-file.js';
export type { EditLinesInput, EditLinesOutput } from './tools/edit-lines.js';
export { EMPTY_SHA256, type LatestFileState } from './tools/file-state.js';
export { FileSystemToolset, type FileSystemToolsetOptions } from './tools/filesystem-toolset.js';
export type { GetFileInfoInput, GetFileInfoOutput } from './tools/get-file-info.js';
export { DEFAULT_LIMITS, type ToolLimits } from './tools/limits.js';
export type { ListFilesInput, ListFilesOutput } from './tools/list-files.js';
export type { PatchFileInput, PatchFileOutput } from './tools/patch-file.js';
export type { ReadFileInput, ReadFileOutput } from './tools/read-file.js';
export type { ReadManyFileEntry, ReadManyFilesInput, ReadManyFilesOutput } from './tools/read-many-files.js';
export type { ReadMediaFileInput, ReadMediaFileOutput } from './tools/read-media-file.js';
export type { ToolInputs } from './tools/tool-inputs.js';
export type { TransferInput, TransferOutput } from './tools/transfer.js';
export { TOOL_NAMES, type ToolName } from './tools/types.js';
export type { UndoOutput } from './tools/undo.js';
export type { WriteFileInput, WriteFileOutput } from './tools/write-file.js';
