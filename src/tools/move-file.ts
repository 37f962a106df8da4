import { moveFile as moveOnDisk } from './file-io.js';
import { runTransfer, TransferInput, type TransferOutput, transferApproval } from './transfer.js';
import type { SandboxTool } from './types.js';

export const moveFile: SandboxTool<TransferInput, TransferOutput> = {
  name: 'move_file',
  description:
    'Move or rename a file. Both source and destination must be writable. An existing destination is never replaced unless `overwrite: true`.',
  inputSchema: TransferInput,
  needsApproval: (input, ctx) => transferApproval(ctx, 'move', input),
  execute: (input, ctx) =>
    runTransfer(ctx, 'move', input, (e) => moveOnDisk(e.from, e.to, input.overwrite ?? false)),
};
