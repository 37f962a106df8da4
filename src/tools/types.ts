import type { z } from 'zod';
import type { ApprovalResult, CallTargets } from '../approval/types.js';
import type { LineHashCache } from '../edit/line-hash-cache.js';
import type { StateTracker } from '../fs/state-tracker.js';
import type { ErrorCode } from '../sandbox/errors.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { StagingOverlay } from '../staging/overlay.js';
import type { ChangeJournal } from './change-journal.js';
import type { ToolLimits } from './limits.js';
import type { ReadVersionCache } from './read-versions.js';
import type { WriterTracker } from './writer-tracker.js';

/** The names of the built-in tools (LLM-facing, snake_case). */
export const TOOL_NAMES = [
  'read_file',
  'write_file',
  'edit_file',
  'patch_file',
  'edit_lines',
  'list_files',
  'delete_file',
  'move_file',
  'copy_file',
  'read_many_files',
  'create_directory',
  'get_file_info',
  'read_media_file',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** Per-call information supplied by the caller (framework adapter or approval layer). */
export interface ToolCallContext {
  toolCallId?: string;
  /**
   * Set by the approval layer: the file state the user approved (payload.baseSha256).
   * `null` means the user approved creating a file that did not exist. If the file
   * differs at execution time the tool refuses with `stale_approval`.
   */
  approvedBaseSha256?: string | null;
  /** Same, for the destination of move/copy. */
  approvedDestinationSha256?: string | null;
  /**
   * edit_lines: the hashed read its anchors were resolved against when the user
   * approved (payload.anchorsSha256). A different read at execution would move
   * the anchors, so the tool refuses with `stale_approval`.
   */
  approvedAnchorsSha256?: string | null;
  /**
   * The files the user approved the call for (real paths, links, identities): at
   * execution each is re-resolved under the file lock; any difference → stale_approval.
   */
  approvedTargets?: CallTargets;
  /** The arguments are a person's own edit: their text is applied exactly as written. */
  verbatim?: boolean;
}

/** Everything a tool needs to run: the sandbox, shared state and limits, plus the call info. */
export interface ToolContext extends ToolCallContext {
  sandbox: Sandbox;
  state: StateTracker;
  journal: ChangeJournal;
  writers: WriterTracker;
  /** Text of each file as last read with hashes (edit_lines follows moved lines against it). */
  anchors: Map<string, string>;
  /** Line hashes of recent file contents by SHA-256, so edit_lines hashes a file once per version. */
  lineHashes: LineHashCache;
  /** read_file's per-version cache of decoded, line-indexed files (paging reads a file once). */
  readVersions?: ReadVersionCache;
  limits: ToolLimits;
  /** Staging mode: writes go to this overlay instead of the disk, reads see it (see src/staging). */
  staging?: StagingOverlay;
}

export interface SandboxTool<I = unknown, O = unknown> {
  name: string;
  /** The LLM's usage protocol for this tool. */
  description: string;
  inputSchema: z.ZodType<I>;
  needsApproval(input: I, ctx: ToolContext): Promise<ApprovalResult>;
  execute(input: I, ctx: ToolContext): Promise<O>;
}

export interface ToolErrorInfo {
  code: ErrorCode;
  message: string;
  suggestions?: string[];
  details?: Record<string, unknown>;
}

export type ToolOutcome<O = unknown> = { ok: true; data: O } | { ok: false; error: ToolErrorInfo };

/** Latest known state of a file, carried by reads and writes so a later change can name what it is based on. */
export interface FileState {
  path: string;
  version: number;
  sha256: string;
}

/** zod message for an empty path argument. */
export const NONEMPTY_PATH = 'must not be empty: give a virtual path such as "/src/index.ts"';
