import { z } from 'zod';
import type { ApprovalResult } from '../contract/approval-types.js';
import type { ApprovalPayload } from '../contract/payloads.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';
import { diffForModel } from '../edit/diff-for-model.js';
import type { ResolvedPath, Sandbox } from '../sandbox/sandbox.js';
import { boundaryAtOrBefore } from '../text/text-slices.js';

/** Tools that change the file system: each takes `dryRun` (the reference server's name for a preview). */
export const WRITING_TOOLS: ReadonlySet<string> = new Set([
  'write_file',
  'edit_file',
  'patch_file',
  'edit_lines',
  'delete_file',
  'move_file',
  'copy_file',
  'create_directory',
]);

export const DRY_RUN_FIELD = {
  dryRun: z
    .boolean()
    .optional()
    .describe(
      'true: change nothing; return the approval payload (diff, content, what moves) the user would be shown. Needs no approval.',
    ),
};

/** What a dry run returns: the change as the person would review it, and whether they would be asked. */
export interface DryRunOutput {
  dry_run: true;
  /** Whether the real call would ask the user (false on mounts that do not ask for writes). */
  approval_required: boolean;
  description: string;
  /** The virtual path the change is about (absent when nothing would change). */
  path?: string;
  /** The unified diff, when the change has one. */
  diff?: string;
  /** The approval payload (absent when nothing would change). */
  payload?: ApprovalPayload;
  /**
   * Payload text fields longer than the result's limit (readMaxChars), cut as a result's
   * diff is: the model is handed a bounded result; the person's real review shows them whole.
   */
  payload_cut?: string[];
}

/**
 * The sandbox as a dry run sees it: every mount asks for writes, so every
 * writing tool builds its payload (the preview) even where the real call would
 * be pre-approved. Resolution and policy are the sandbox's own.
 */
export function previewSandbox(sandbox: Sandbox): Sandbox {
  const view = Object.create(sandbox) as Sandbox;
  view.resolve = (virtualPath, access): ResolvedPath => {
    const resolved = sandbox.resolve(virtualPath, access);
    return { ...resolved, mount: { ...resolved.mount, writeApproval: true } };
  };
  return view;
}

/** A dry run's outcome from the tool's approval result computed on the preview sandbox. */
export function dryRunOutcome(
  result: ApprovalResult,
  approvalRequired: boolean,
  maxChars: number,
): ToolOutcome<DryRunOutput> {
  if (result.status === 'blocked') {
    return {
      ok: false,
      error: result.error ?? { code: 'approval_blocked', message: result.reason },
    };
  }
  if (result.status !== 'needs_approval') {
    // No payload even with approvals forced (e.g. a directory that already exists): nothing to review.
    return {
      ok: true,
      data: {
        dry_run: true,
        approval_required: false,
        description:
          'The call would run without asking, and there is nothing to review for it. Nothing was changed.',
      },
    };
  }
  const shown = payloadForModel(result.payload, maxChars);
  const diff = (shown.payload as { unifiedDiff?: unknown }).unifiedDiff;
  return {
    ok: true,
    data: {
      dry_run: true,
      approval_required: approvalRequired,
      path: shown.payload.path,
      description: shown.payload.description,
      ...(typeof diff === 'string' ? { diff } : {}),
      payload: shown.payload,
      ...(shown.cut.length > 0 ? { payload_cut: shown.cut } : {}),
    },
  };
}

/** The payload with each text field longer than `maxChars` cut (a diff as diffForModel cuts it), and the fields cut. */
function payloadForModel(
  payload: ApprovalPayload,
  maxChars: number,
): { payload: ApprovalPayload; cut: string[] } {
  const cut: string[] = [];
  const out: Record<string, unknown> = { ...payload };
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value !== 'string' || value.length <= maxChars) continue;
    const end = boundaryAtOrBefore(value, maxChars);
    out[key] =
      key === 'unifiedDiff'
        ? diffForModel(value, maxChars)
        : `${value.slice(0, end)}\n[… ${(value.length - end).toLocaleString('en')} more characters not shown]`;
    cut.push(key);
  }
  return { payload: out as ApprovalPayload, cut };
}
