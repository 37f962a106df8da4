import type { z } from 'zod';
import type { ApprovalResult } from '../contract/approval-types.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { EarlierRead } from '../edit/apply-line-edits.js';
import type { LineHashCache } from '../edit/line-hash-cache.js';
import type { StateTracker } from '../fs/state-tracker.js';
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

/** Everything a tool needs to run: the sandbox, shared state and limits, plus the call info. */
export interface ToolContext extends ToolCallContext {
  sandbox: Sandbox;
  state: StateTracker;
  journal: ChangeJournal;
  writers: WriterTracker;
  /**
   * Text of each file as last shown with anchors (a hashed read or an edit_lines result),
   * by real host path: every spelling of a file, links included, shares it.
   */
  anchors: Map<string, string>;
  /**
   * The hashed read the model holds when the file was shown again since (edit_lines
   * results, later pages), with every anchor given since (by real host path).
   */
  earlierAnchors: Map<string, EarlierRead>;
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

/** Latest known state of a file, carried by reads and writes so a later change can name what it is based on. */
export interface FileState {
  path: string;
  version: number;
  sha256: string;
}

/** zod message for an empty path argument. */
export const NONEMPTY_PATH = 'must not be empty: give a virtual path such as "/src/index.ts"';
