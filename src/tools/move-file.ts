import type { ResolvedPath } from '../sandbox/sandbox.js';
import { moveFile as moveOnDisk } from './file-io.js';
import { bounds } from './file-state.js';
import { moveLink } from './link-io.js';
import { directoryMoveApproval, isDirectorySource, moveDirectory } from './move-directory.js';
import { runTransfer, TransferInput, type TransferOutput, transferApproval } from './transfer.js';
import type { SandboxTool } from './types.js';

export const moveFile: SandboxTool<TransferInput, TransferOutput> = {
  name: 'move_file',
  description:
    'Move or rename a file or a directory (a symbolic link is moved itself, not the file it points to). Both source and destination must be writable. An existing destination is never replaced unless `overwrite: true` (never for a directory, which moves only to a new path in the same mount; its approval lists what moves).',
  inputSchema: TransferInput,
  needsApproval: (input, ctx) =>
    isDirectorySource(ctx, input.source)
      ? directoryMoveApproval(ctx, input)
      : transferApproval(ctx, 'move', input),
  execute: (input, ctx) =>
    isDirectorySource(ctx, input.source)
      ? moveDirectory(ctx, input)
      : runTransfer(ctx, 'move', input, (e) =>
          e.link
            ? moveLink(e.link, e.to, input.overwrite ?? false, bounds(ctx))
            : moveOnDisk(e.from as ResolvedPath, e.to, input.overwrite ?? false, bounds(ctx), ctx),
        ),
};
