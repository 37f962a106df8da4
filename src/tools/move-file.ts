import type { ResolvedPath } from '../sandbox/sandbox.js';
import { moveFile as moveOnDisk } from './file-io.js';
import { moveLink } from './link-io.js';
import { runTransfer, TransferInput, type TransferOutput, transferApproval } from './transfer.js';
import type { SandboxTool } from './types.js';

export const moveFile: SandboxTool<TransferInput, TransferOutput> = {
  name: 'move_file',
  description:
    'Move or rename a file (a symbolic link is moved itself, not the file it points to). Both source and destination must be writable. An existing destination is never replaced unless `overwrite: true`.',
  inputSchema: TransferInput,
  needsApproval: (input, ctx) => transferApproval(ctx, 'move', input),
  execute: (input, ctx) =>
    runTransfer(ctx, 'move', input, (e) =>
      e.link
        ? moveLink(e.link, e.to, input.overwrite ?? false)
        : moveOnDisk(e.from as ResolvedPath, e.to, input.overwrite ?? false, ctx),
    ),
};
