#!/usr/bin/env node
import { runCli } from './main.js';

// Exit explicitly: a terminal opened for --approve tty would otherwise keep the process alive.
runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `sandbox-approval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
