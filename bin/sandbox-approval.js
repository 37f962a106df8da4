#!/usr/bin/env node
// The published command: runs the compiled CLI (`npm run build` produces dist/).
try {
  await import('../dist/src/mcp/cli/bin.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/src/mcp/cli/bin.js'))
    throw error;
  process.stderr.write('sandbox-approval: the compiled CLI is missing (dist/); run `npm run build` first.\n');
  process.exit(1);
}
