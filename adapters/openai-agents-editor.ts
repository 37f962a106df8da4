import { type ApplyPatchResult, applyDiff, type Editor } from '@openai/agents';
import { ApprovalToolset, type ApprovalToolsetOptions } from '../src/approval/approval-toolset.js';
import { ApprovalAborted } from '../src/approval/errors.js';
import type { ToolOutcome } from '../src/contract/tool-outcome.js';
import { readTextFile } from '../src/fs/read-text.js';
import type { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import { toErrorInfo, toolError } from '../src/tools/tool-error.js';
import { outcomeText } from './outcome-text.js';

/** Options of `sandboxEditor`: the approval layer's (`approve` is required: secure by default). */
export type SandboxEditorOptions = ApprovalToolsetOptions;

/** apply_patch models write paths relative to the workspace; the sandbox speaks absolute virtual paths. */
function virtualPath(path: string): string {
  return path.startsWith('/') ? path : `/${path.replace(/^\.\//, '')}`;
}

function failed(output: string): ApplyPatchResult {
  return { status: 'failed', output };
}

function result(toolName: string, outcome: ToolOutcome, done: string): ApplyPatchResult {
  return outcome.ok ? { status: 'completed', output: done } : failed(outcomeText(toolName, outcome));
}

/** A V4A diff that does not apply is the model's mistake: say so in the sandbox's own error form. */
function applyV4A(input: string, diff: string, mode: 'default' | 'create', path: string): string {
  try {
    return applyDiff(input, diff, mode);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw toolError(
      'invalid_diff',
      `The diff for ${path} does not apply (${why.replaceAll('\n', ' ')}). Nothing was changed; read the file again and send a diff whose context lines match it exactly.`,
    );
  }
}

/**
 * An `Editor` for the OpenAI Agents SDK's `applyPatchTool`: V4A diffs are applied
 * (with the SDK's own `applyDiff`) to files inside the sandbox, and every change
 * goes through the approval layer as the matching tool call — `write_file` for a
 * create or an update (the user sees the diff, bound to the file state it was
 * computed from), `move_file` for a rename, `delete_file` for a delete. Refusals,
 * denials and diffs that do not apply come back as `status: 'failed'` with the
 * error code and message, and change nothing on disk. An update whose content
 * change landed but whose move did not is `completed`, its output saying which
 * part was applied and which was denied: never `failed` for a change on disk.
 */
export function sandboxEditor(toolset: FileSystemToolset, options: SandboxEditorOptions): Editor {
  const gated = new ApprovalToolset(toolset, options);
  const guard = async (run: () => Promise<ApplyPatchResult>): Promise<ApplyPatchResult> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ApprovalAborted) throw error;
      const info = toErrorInfo(error);
      return failed(`error ${info.code}: ${info.message}`);
    }
  };

  /** The file's exact current text and state (sandbox-checked, size-limited, binary refused); undefined if missing. */
  const current = async (path: string, purpose: 'read' | 'write') => {
    const resolved = toolset.sandbox.resolve(path, purpose);
    if (resolved.kind === 'missing') return undefined;
    return readTextFile(resolved.hostPath, resolved.mount.realRoot, {
      maxBytes: resolved.mount.maxFileBytes ?? toolset.limits.maxFileBytes,
      displayPath: resolved.virtualPath,
    });
  };

  return {
    createFile: (op) =>
      guard(async () => {
        const path = virtualPath(op.path);
        if (await current(path, 'write'))
          return failed(`error invalid_argument: ${path} already exists; use an update_file operation.`);
        const body = applyV4A('', op.diff, 'create', path);
        const content = body === '' || body.endsWith('\n') ? body : `${body}\n`;
        const outcome = await gated.callTool('write_file', { path, content });
        return result('write_file', outcome, `Created ${path}.`);
      }),

    updateFile: (op) =>
      guard(async () => {
        const path = virtualPath(op.path);
        const file = await current(path, 'write');
        if (!file) return failed(`error not_found: ${path} does not exist; use a create_file operation.`);
        const content = applyV4A(file.text, op.diff, 'default', path);
        // A pure rename changes no content: ask only for the move.
        const written =
          content === file.text && op.moveTo
            ? ({ ok: true, data: null } as const)
            : await gated.callTool('write_file', { path, content, base_sha256: file.sha256 });
        if (!written.ok || !op.moveTo) return result('write_file', written, `Updated ${path}.`);
        const destination = virtualPath(op.moveTo);
        const moved = await gated.callTool('move_file', { source: path, destination });
        // A pure rename wrote nothing: its refusal is the whole update's.
        if (moved.ok || written.data === null)
          return result('move_file', moved, `Updated ${path} and moved it to ${destination}.`);
        // The write landed: reporting the whole update as failed would have the model retry a diff that no longer applies.
        return {
          status: 'completed',
          output: `Partly applied. The content change to ${path} was applied (it is on disk now). The move to ${destination} was not: ${outcomeText('move_file', moved)} The file is still at ${path}, with the new content.`,
        };
      }),

    deleteFile: (op) =>
      guard(async () => {
        const path = virtualPath(op.path);
        const outcome = await gated.callTool('delete_file', { path });
        return result('delete_file', outcome, `Deleted ${path}.`);
      }),
  };
}
