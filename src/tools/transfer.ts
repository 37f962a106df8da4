import path from 'node:path';
import { z } from 'zod';
import { ApprovalResult } from '../contract/approval-types.js';
import type { CopyPayload, MovePayload } from '../contract/payloads.js';
import { withFileLocks } from '../fs/file-lock.js';
import type { FileBytes } from '../fs/read-text.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { linkTarget, OUTSIDE_THE_SANDBOX, type ResolvedLink, resolveLink } from '../sandbox/symlink.js';
import { fileTargetOf } from '../sandbox/target.js';
import { blockedFrom } from './apply-write.js';
import { checkWriteSize, loadBytes, refuseStagedLink } from './file-io.js';
import {
  checkApprovedState,
  checkApprovedTarget,
  checkReadIdentity,
  loadingApproved,
  resolveApproved,
  resolvedField,
  throughLinks,
} from './file-state.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type ToolContext } from './types.js';

/** Shared by move_file and copy_file. */
export const TransferInput = z.object({
  source: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of the existing file.'),
  destination: z.string().min(1, NONEMPTY_PATH).describe('Virtual path to move/copy it to.'),
  overwrite: z.boolean().optional().describe('Replace an existing destination (default false: refuse).'),
});
export type TransferInput = z.infer<typeof TransferInput>;

export interface TransferOutput {
  source: string;
  destination: string;
  bytes: number;
  overwritten: boolean;
  /** The source was a symbolic link: the link itself was moved or copied, not the file it points to. */
  symlink?: true;
}

interface Endpoints {
  from: ResolvedPath | ResolvedLink;
  to: ResolvedPath;
  /** Raw bytes: any file can be moved or copied, text or not (empty for a link). */
  source: Pick<FileBytes, 'sha256' | 'bytes'> & Partial<FileBytes>;
  existing: FileBytes | undefined;
  /** The source is a symbolic link: the link itself is moved or copied (mv, cp -P). */
  link?: ResolvedLink;
}

async function endpoints(ctx: ToolContext, kind: 'move' | 'copy', input: TransferInput): Promise<Endpoints> {
  const access = kind === 'move' ? 'write' : 'read';
  const link = resolveLink(ctx.sandbox, input.source, access);
  const from = link ?? resolveApproved(ctx, 'path', input.source, access);
  const to = resolveApproved(ctx, 'destination', input.destination, 'write');
  // Approved files first: a source removed or a destination taken since the approval is
  // stale, not the model's mistake (no-ops when nothing was approved).
  checkApprovedTarget(ctx, 'path', from);
  checkApprovedTarget(ctx, 'destination', to);
  if (from.hostPath === to.hostPath || link?.target === to.virtualPath) {
    throw toolError(
      'invalid_argument',
      link
        ? `${from.virtualPath} is a symbolic link to ${to.virtualPath}: it cannot replace the file it points to.`
        : `source and destination are the same file (${to.virtualPath}).`,
    );
  }
  if (link) refuseStagedLink(ctx, link.virtualPath);
  if (link) refuseLinkOutward(ctx, kind, link, to);
  const source = link
    ? { sha256: link.sha256, bytes: 0 }
    : await loadingApproved(ctx, 'path', from, () => loadBytes(ctx, from as ResolvedPath));
  if (!source) throw toolError('not_found', `${from.virtualPath} does not exist.`);
  if (!link) checkWriteSize(ctx, to, source.bytes);
  const existing = await loadingApproved(ctx, 'destination', to, () => loadBytes(ctx, to));
  if (existing && !input.overwrite) {
    throw toolError(
      'invalid_argument',
      `${to.virtualPath} already exists; pass overwrite: true to replace it.`,
    );
  }
  // rename(2) between two names of one file does nothing and reports success.
  if (
    kind === 'move' &&
    !link &&
    existing?.identity !== undefined &&
    'identity' in source &&
    source.identity === existing.identity
  )
    throw toolError(
      'invalid_argument',
      `${from.virtualPath} and ${to.virtualPath} are two names of one file (hard links): moving one onto the other would change nothing. Nothing was moved; to keep one name, delete the other with delete_file.`,
    );
  return { from, to, source, existing, ...(link ? { link } : {}) };
}

/**
 * A copied link pointing outside the sandbox (or a moved relative link that would
 * come to point outside) plants a new way out for whatever else reads the mount:
 * refused, as the sandbox refuses any other path that leaves it.
 */
function refuseLinkOutward(
  ctx: ToolContext,
  kind: 'move' | 'copy',
  link: ResolvedLink,
  to: ResolvedPath,
): void {
  const after = linkTarget(ctx.sandbox, path.dirname(to.hostPath), link.linkText);
  if (after !== OUTSIDE_THE_SANDBOX) return;
  if (kind === 'move' && link.target === OUTSIDE_THE_SANDBOX) return;
  throw toolError(
    'path_not_in_sandbox',
    `${link.virtualPath} is a symbolic link, and ${kind === 'copy' ? 'a copy of it' : 'moved there, it'} at ${to.virtualPath} would point outside the sandbox, so it was not ${kind === 'copy' ? 'copied' : 'moved'}. Nothing was changed; copy or move files inside the sandbox instead.`,
  );
}

export async function transferApproval(
  ctx: ToolContext,
  kind: 'move' | 'copy',
  input: TransferInput,
): Promise<ApprovalResult> {
  try {
    const { from, to, source, existing, link } = await endpoints(ctx, kind, input);
    // A copy or a move puts the source's content where the model may read it unasked: a
    // source the model may not read unasked (readApproval) asks, whatever the destination.
    const needs =
      to.mount.writeApproval ||
      (kind === 'move' && from.mount.writeApproval) ||
      ((from.mount.readApproval || (from as ResolvedPath).target?.mount.readApproval === true) &&
        !to.mount.readApproval);
    if (!needs) return ApprovalResult.preApproved();
    const verb = kind === 'move' ? 'Move' : 'Copy';
    const symlink = link && {
      target: link.target,
      targetAfter: linkTarget(ctx.sandbox, path.dirname(to.hostPath), link.linkText),
    };
    const what = symlink
      ? `the symbolic link ${from.virtualPath} (it points to ${symlink.target})`
      : from.virtualPath;
    const note = symlink
      ? `; the file it points to is not ${kind === 'move' ? 'moved' : 'copied'}, and the ${kind === 'move' ? 'moved' : 'new'} link points to ${symlink.targetAfter}`
      : '';
    const payload: MovePayload | CopyPayload = {
      type: kind,
      description: `${verb} ${what} → ${to.virtualPath}${existing ? ' (overwrites the destination)' : ''}${note}${link ? '' : throughLinks(from)}${throughLinks(to)}`,
      path: from.virtualPath,
      mount: from.mount.mountPoint,
      baseSha256: source.sha256,
      source: from.virtualPath,
      destination: to.virtualPath,
      destinationMount: to.mount.mountPoint,
      destinationExists: existing !== undefined,
      overwrite: input.overwrite ?? false,
      destinationSha256: existing?.sha256 ?? null,
      fileBytes: source.bytes,
      ...(symlink ? { symlink } : {}),
      // `resolved` is about `path` (the source); links on the destination's way are in the description.
      ...(link ? {} : resolvedField(from)),
    };
    return ApprovalResult.needsApproval(payload, { path: fileTargetOf(from), destination: fileTargetOf(to) });
  } catch (error) {
    return blockedFrom(error);
  }
}

/** Locks both files (in a fixed order, so two transfers cannot deadlock), re-checks, then runs `act`. */
export async function runTransfer(
  ctx: ToolContext,
  kind: 'move' | 'copy',
  input: TransferInput,
  act: (e: Endpoints) => Promise<void>,
): Promise<TransferOutput> {
  const first = await endpoints(ctx, kind, input);
  return withFileLocks([first.from.hostPath, first.to.hostPath], async () => {
    // endpoints() checks the approved source and destination first, under both locks here.
    const e = await endpoints(ctx, kind, input);
    if (!e.link) checkReadIdentity(ctx, 'path', e.from.virtualPath, e.source);
    checkReadIdentity(ctx, 'destination', e.to.virtualPath, e.existing);
    checkApprovedState(ctx, e.from.virtualPath, ctx.approvedBaseSha256, e.source);
    checkApprovedState(ctx, e.to.virtualPath, ctx.approvedDestinationSha256, e.existing);
    await act(e);
    ctx.journal.record({
      toolName: `${kind}_file`,
      path: e.to.virtualPath,
      ...(kind === 'move' ? { fromPath: e.from.virtualPath } : {}),
      beforeSha256: e.existing?.sha256 ?? null,
      afterSha256: e.source.sha256,
      ...(e.existing ? { beforeContent: e.existing.data, beforeMode: e.existing.mode } : {}),
      ...(e.link ? { afterLink: e.link.linkText } : {}),
    });
    ctx.state.record(e.to.virtualPath, e.source.sha256);
    return {
      source: e.from.virtualPath,
      destination: e.to.virtualPath,
      bytes: e.source.bytes,
      overwritten: e.existing !== undefined,
      ...(e.link ? { symlink: true as const } : {}),
    };
  });
}
