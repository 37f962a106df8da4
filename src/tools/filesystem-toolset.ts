import type { ApprovalConfig, ApprovalResult } from '../contract/approval-types.js';
import type { ChangeRecord } from '../contract/change-record.js';
import { SandboxError } from '../contract/errors.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';
import type { EarlierRead } from '../edit/apply-line-edits.js';
import { sharedLineHashes } from '../edit/line-hash-cache.js';
import { StateTracker } from '../fs/state-tracker.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { recoverChangeSetsSync } from '../staging/recover.js';
import { StagingArea } from '../staging/staging-area.js';
import { ChangeJournal } from './change-journal.js';
import { copyFile } from './copy-file.js';
import { createDirectory } from './create-directory.js';
import { deleteFile } from './delete-file.js';
import { dryRunOutcome, previewSandbox } from './dry-run.js';
import { editFile } from './edit-file.js';
import { editLines } from './edit-lines.js';
import { getFileInfo } from './get-file-info.js';
import { DEFAULT_LIMITS, type ToolLimits } from './limits.js';
import { listFiles } from './list-files.js';
import { moveFile } from './move-file.js';
import { patchFile } from './patch-file.js';
import { readFile } from './read-file.js';
import { readManyFiles } from './read-many-files.js';
import { readMediaFile } from './read-media-file.js';
import { ReadVersionCache } from './read-versions.js';
import { exposedTool, parseToolArguments } from './tool-arguments.js';
import { toErrorInfo, toolError } from './tool-error.js';
import type { SandboxTool, ToolContext, ToolName } from './types.js';
import { undoLastChange } from './undo.js';
import { writeFile } from './write-file.js';
import { WriterTracker } from './writer-tracker.js';

// biome-ignore lint/suspicious/noExplicitAny: tools of different input/output types live in one registry
type AnyTool = SandboxTool<any, any>;

export const BUILTIN_TOOLS: Record<ToolName, AnyTool> = {
  read_file: readFile,
  write_file: writeFile,
  edit_file: editFile,
  patch_file: patchFile,
  edit_lines: editLines,
  list_files: listFiles,
  delete_file: deleteFile,
  move_file: moveFile,
  copy_file: copyFile,
  read_many_files: readManyFiles,
  create_directory: createDirectory,
  get_file_info: getFileInfo,
  read_media_file: readMediaFile,
};

export interface FileSystemToolsetOptions {
  /** Which tools to expose (default: all built-in tools). */
  tools?: readonly ToolName[];
  limits?: Partial<ToolLimits>;
  /**
   * Staging mode: writing tools record into a change set instead of the disk
   * (same checks, errors and results), reads see the staged state; review and
   * apply it with `toolset.staging` (see docs/review.md).
   */
  staging?: boolean;
}

/**
 * The file tools over one sandbox. Holds the shared state: the version counter,
 * per-file locks (in src/fs) and the change journal. `callTool` never throws for
 * an expected failure: it returns `{ ok: false, error }` with a stable code.
 */
export class FileSystemToolset {
  readonly sandbox: Sandbox;
  readonly limits: ToolLimits;
  readonly state = new StateTracker();
  readonly journal: ChangeJournal;
  readonly writers = new WriterTracker();
  private readonly anchors = new Map<string, string>();
  private readonly earlierAnchors = new Map<string, EarlierRead>();
  private readonly lineHashes = sharedLineHashes;
  private readonly readVersions = new ReadVersionCache();
  private readonly tools: Map<string, AnyTool>;
  /** The staged change set (staging mode only). */
  staging: StagingArea | undefined;

  constructor(sandbox: Sandbox, options: FileSystemToolsetOptions = {}) {
    this.sandbox = sandbox;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.journal = new ChangeJournal(this.limits.journalBudgetBytes);
    const names = options.tools ?? (Object.keys(BUILTIN_TOOLS) as ToolName[]);
    const unknown = names.filter((n) => !Object.hasOwn(BUILTIN_TOOLS, n));
    if (unknown.length > 0) {
      throw new SandboxError(
        'invalid_argument',
        `Unknown tool name${unknown.length === 1 ? '' : 's'} in options.tools: ${unknown.join(', ')}. Built-in tools: ${Object.keys(BUILTIN_TOOLS).join(', ')}.`,
      );
    }
    this.tools = new Map(names.map((n) => [n, exposedTool(BUILTIN_TOOLS[n])]));
    // An apply a crash interrupted is finished or undone before any tool looks at the files.
    recoverChangeSetsSync(sandbox);
    if (options.staging) this.stage();
  }

  /** Switches to staging mode (idempotent) and returns the staging area. */
  stage(): StagingArea {
    this.staging ??= new StagingArea(this.sandbox);
    return this.staging;
  }

  listTools(): AnyTool[] {
    return [...this.tools.values()];
  }

  getTool(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  /**
   * Runs a tool. Expected failures (bad arguments, sandbox refusals, stale state) come back as `ok: false`.
   * With `dryRun: true` a writing tool changes nothing and returns the payload the person would review.
   */
  async callTool(name: string, args: unknown, call: ToolCallContext = {}): Promise<ToolOutcome> {
    try {
      const tool = this.requireTool(name);
      const { input, dryRun } = parseToolArguments(tool, args);
      if (dryRun) return await this.preview(tool, input, call);
      return { ok: true, data: await tool.execute(input, this.context(call)) };
    } catch (error) {
      return { ok: false, error: toErrorInfo(error) };
    }
  }

  /**
   * What approval the call needs. Policy refusals are `blocked`; a call that
   * would fail anyway is `blocked` with its error; `config[name].preApproved`
   * skips asking, but never overrides a block.
   */
  async needsApproval(
    name: string,
    args: unknown,
    call: ToolCallContext = {},
    config: ApprovalConfig = {},
  ): Promise<ApprovalResult> {
    let result: ApprovalResult;
    try {
      const tool = this.requireTool(name);
      const { input, dryRun } = parseToolArguments(tool, args);
      // A dry run changes nothing, so nobody is asked; a call that would be blocked still is.
      if (dryRun) {
        const preview = await this.preview(tool, input, call);
        return preview.ok
          ? { status: 'pre_approved' }
          : { status: 'blocked', reason: preview.error.message, error: preview.error };
      }
      result = await tool.needsApproval(input, this.context(call));
    } catch (error) {
      const info = toErrorInfo(error);
      return { status: 'blocked', reason: info.message, error: info };
    }
    if (result.status === 'needs_approval' && config[name]?.preApproved) return { status: 'pre_approved' };
    // Staged writes touch nothing: the person approves them all at once in the review.
    if (
      result.status === 'needs_approval' &&
      this.staging &&
      result.payload.type !== 'read' &&
      result.payload.type !== 'list'
    )
      return { status: 'pre_approved' };
    return result;
  }

  /**
   * The files a call touches, as lock keys: real host paths (symlinks resolved
   * inside the sandbox), so `a.txt`, `/./a.txt` and `/a.txt` share one key, for
   * a file that exists or one a call would create. A path that does not resolve
   * keeps its spelling (the call fails anyway).
   */
  lockKeys(_name: string, args: unknown): string[] {
    if (args === null || typeof args !== 'object') return [];
    const a = args as Record<string, unknown>;
    const paths = [a.path, a.file_path, a.source, a.destination].filter(
      (v): v is string => typeof v === 'string',
    );
    const keys = paths.map((p) => {
      // 'list' resolves what exists (a directory too); 'write' also a file yet to be created,
      // through its real parent and through a dangling link, so every spelling of a new file
      // shares one key as well.
      for (const access of ['list', 'write'] as const) {
        try {
          return `file\0${this.sandbox.resolve(p, access).hostPath}`;
        } catch {
          // try the next way, else keep the spelling
        }
      }
      return `unresolved\0${p}`;
    });
    return [...new Set(keys)].sort();
  }

  /** Changes applied through this toolset, oldest first. */
  history(): ChangeRecord[] {
    return this.journal.history();
  }

  /** Restores the last change if the file still has its after-state; otherwise refuses with a reason. */
  undo(): Promise<ToolOutcome> {
    if (this.staging) {
      return Promise.resolve({
        ok: false as const,
        error: toErrorInfo(
          toolError(
            'invalid_argument',
            'In staging mode nothing is on disk yet: reject the change in the review instead.',
          ),
        ),
      });
    }
    return undoLastChange(this.context({})).then(
      (data) => ({ ok: true as const, data }),
      (error) => ({ ok: false as const, error: toErrorInfo(error) }),
    );
  }

  private context(call: ToolCallContext): ToolContext {
    return {
      ...call,
      sandbox: this.staging ? this.staging.view : this.sandbox,
      ...(this.staging ? { staging: this.staging.overlay } : {}),
      state: this.state,
      journal: this.journal,
      writers: this.writers,
      anchors: this.anchors,
      earlierAnchors: this.earlierAnchors,
      lineHashes: this.lineHashes,
      readVersions: this.readVersions,
      limits: this.limits,
    };
  }

  private requireTool(name: string): AnyTool {
    const tool = this.tools.get(name);
    if (!tool) {
      const available = [...this.tools.keys()].join(', ');
      throw toolError('invalid_argument', `Unknown tool "${name}". Available tools: ${available}.`);
    }
    return tool;
  }

  /** A dry run: the approval payload, computed as if every mount asked, and whether the real call would ask. */
  private async preview(tool: AnyTool, input: unknown, call: ToolCallContext): Promise<ToolOutcome> {
    const real = await tool.needsApproval(input, this.context(call));
    if (real.status !== 'pre_approved')
      return dryRunOutcome(real, real.status === 'needs_approval', this.limits.readMaxChars);
    const shown = await tool.needsApproval(input, {
      ...this.context(call),
      sandbox: previewSandbox(this.sandbox),
    });
    return dryRunOutcome(shown, false, this.limits.readMaxChars);
  }
}
