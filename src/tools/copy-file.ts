import { saveFile } from './file-io.js';
import { boundEntry } from './file-state.js';
import { createLink } from './link-io.js';
import { runTransfer, TransferInput, type TransferOutput, transferApproval } from './transfer.js';
import type { SandboxTool } from './types.js';

export const copyFile: SandboxTool<TransferInput, TransferOutput> = {
  name: 'copy_file',
  description:
    'Copy a file (a symbolic link is copied as a link, like cp -P). The source must be readable and the destination writable. An existing destination is never replaced unless `overwrite: true`.',
  inputSchema: TransferInput,
  needsApproval: (input, ctx) => transferApproval(ctx, 'copy', input),
  execute: (input, ctx) =>
    runTransfer(ctx, 'copy', input, async (e) => {
      if (e.link)
        await createLink(e.link.linkText, e.to, input.overwrite ?? false, boundEntry(ctx, 'destination'));
      else await saveFile(ctx, e.to, e.source.data!, e.source.mode, boundEntry(ctx, 'destination'));
    }),
};
