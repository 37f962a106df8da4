import { z } from 'zod';
import type { CopyPayload, MovePayload } from '../approval/payloads.js';
import { ApprovalResult } from '../approval/types.js';
import type { FileBytes } from '../fs/read-text.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { loadBytes, withLock } from './file-io.js';
import { checkApprovedState } from './file-state.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type ToolContext } from './types.js';
import { blockedFrom } from './writer.js';

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
}

interface Endpoints {
  from: ResolvedPath;
  to: ResolvedPath;
  /** Raw bytes: any file can be moved or copied, text or not. */
  source: FileBytes;
  existing: FileBytes | undefined;
}

async function endpoints(ctx: ToolContext, kind: 'move' | 'copy', input: TransferInput): Promise<Endpoints> {
  const from = ctx.sandbox.resolve(input.source, kind === 'move' ? 'write' : 'read');
  const to = ctx.sandbox.resolve(input.destination, 'write');
  if (from.hostPath === to.hostPath) {
    throw toolError('invalid_argument', `source and destination are the same file (${to.virtualPath}).`);
  }
  const source = await loadBytes(ctx, from);
  if (!source) throw toolError('not_found', `${from.virtualPath} does not exist.`);
  const existing = await loadBytes(ctx, to);
  if (existing && !input.overwrite) {
    throw toolError(
      'invalid_argument',
      `${to.virtualPath} already exists; pass overwrite: true to replace it.`,
    );
  }
  return { from, to, source, existing };
}

export async function transferApproval(
  ctx: ToolContext,
  kind: 'move' | 'copy',
  input: TransferInput,
): Promise<ApprovalResult> {
  try {
    const { from, to, source, existing } = await endpoints(ctx, kind, input);
    const needs = to.mount.writeApproval || (kind === 'move' && from.mount.writeApproval);
    if (!needs) return ApprovalResult.preApproved();
    const verb = kind === 'move' ? 'Move' : 'Copy';
    const payload: MovePayload | CopyPayload = {
      type: kind,
      description: `${verb} ${from.virtualPath} → ${to.virtualPath}${existing ? ' (overwrites the destination)' : ''}`,
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
    };
    return ApprovalResult.needsApproval(payload);
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
  const [a, b] = [first.from, first.to].sort((x, y) => x.hostPath.localeCompare(y.hostPath));
  return withLock(a!, () =>
    withLock(b!, async () => {
      const e = await endpoints(ctx, kind, input);
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
      });
      ctx.state.record(e.to.virtualPath, e.source.sha256);
      return {
        source: e.from.virtualPath,
        destination: e.to.virtualPath,
        bytes: e.source.bytes,
        overwritten: e.existing !== undefined,
      };
    }),
  );
}
