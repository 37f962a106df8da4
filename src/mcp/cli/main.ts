import fs from 'node:fs';
import path from 'node:path';
import { SandboxError } from '../../contract/errors.js';
import { FileSystemToolset } from '../../tools/filesystem-toolset.js';
import { createMcpServer } from '../create-mcp-server.js';
import { messageLimitFor, SizedStdioServerTransport } from '../sized-stdio-transport.js';
import { loadSetup } from './load-config.js';
import { CliUsageError, HELP, parseArgs } from './parse-args.js';

/** This package's version, from its package.json (found upward: the file runs from src/ or dist/src/). */
function packageVersion(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      if (pkg.name === 'sandbox-approval' && typeof pkg.version === 'string') return pkg.version;
    } catch {}
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
const VERSION = packageVersion();

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  workingDirectory?: string;
}

/**
 * The `sandbox-approval` command. Returns the exit code for help, version and
 * setup errors (2); for `mcp` it serves until stdin closes, then returns 0.
 * stdout carries only the protocol: everything else goes to stderr.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const log = (line: string) => io.stderr.write(`sandbox-approval: ${line}\n`);
  let setup: ReturnType<typeof loadSetup>;
  try {
    const options = parseArgs(argv);
    if (options.command === 'help') {
      io.stdout.write(HELP);
      return 0;
    }
    if (options.command === 'version') {
      io.stdout.write(`${VERSION}\n`);
      return 0;
    }
    setup = loadSetup(options, io.workingDirectory);
  } catch (error) {
    if (error instanceof CliUsageError || error instanceof SandboxError) {
      log(`error: ${error.message}`);
      log('run "sandbox-approval --help" for the options.');
      return 2;
    }
    throw error;
  }
  let server: ReturnType<typeof createMcpServer>;
  let toolset: FileSystemToolset;
  try {
    toolset = new FileSystemToolset(setup.sandbox);
    server = createMcpServer(toolset, {
      version: VERSION,
      ...(setup.tools ? { tools: setup.tools } : {}),
      roots: setup.roots,
      approval: {
        mode: setup.approve,
        elicitation: setup.elicitation,
        ...(setup.policy ? { policy: setup.policy } : {}),
      },
    });
  } catch (error) {
    if (error instanceof SandboxError || error instanceof TypeError) {
      log(`error: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const mounts = setup.sandbox.mounts.map((m) => `${m.mountPoint} (${m.mode})`).join(', ');
  log(
    `serving MCP on stdio: mounts ${mounts}; approvals: elicitation when the client supports it, else ${setup.approve}`,
  );
  // Big enough for the largest file any mount accepts, whatever its JSON escaping: that write reaches
  // the tool's own size check; anything larger is refused with an error instead of ending the server.
  const largest = setup.sandbox.mounts.reduce(
    (most, m) => Math.max(most, m.maxFileBytes ?? toolset.limits.maxFileBytes),
    0,
  );
  const transport = new SizedStdioServerTransport({ maxMessageBytes: messageLimitFor(largest), log });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
  return 0;
}
