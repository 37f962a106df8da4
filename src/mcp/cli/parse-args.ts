import type { MountInput } from '../../sandbox/config.js';
import { APPROVE_MODES, type ApproveMode } from '../fallback-approval.js';
import { ROOTS_MODES, type RootsMode } from '../roots.js';

/** What the command line asks for; mounts and files are validated later, when loaded. */
export interface CliOptions {
  command: 'mcp' | 'help' | 'version';
  mounts: MountInput[];
  config?: string;
  approve?: ApproveMode;
  policy?: string;
  tools?: string[];
  elicitation: boolean;
  roots?: RootsMode;
}

/** A problem with the command line: printed with the usage hint, exit code 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

export const HELP = `Usage: sandbox-approval mcp [options]

Runs an MCP server over stdio (stdout is the protocol; logs go to stderr) that
exposes sandboxed file tools with approvals.

Options:
  --mount HOST:VIRTUAL[:ro|rw]  Mount the host directory HOST at the virtual path VIRTUAL
                                (starts with "/"). Mode defaults to ro. Repeatable.
  --config FILE                 JSON config: { "mounts": [...], "approve", "policy", "tools" }
                                (mounts as in new Sandbox(); relative hostPaths are resolved
                                against the config file's directory). --mount adds to it.
  --approve deny|tty|policy     Who decides when the client cannot be asked (no elicitation):
                                deny   refuse every call that needs approval (default)
                                tty    ask on the controlling terminal (/dev/tty)
                                policy apply --policy's rules; refuse what they do not cover
  --policy FILE                 JSON approval policy: { "rules": [{ "tools": [...],
                                "paths": ["/src/**"], "decision": "approve"|"deny", "note" }] }.
                                Its rules apply in every mode, before anyone is asked.
  --tools a,b,c                 Expose only these tools (default: all).
  --no-elicitation              Never ask through the client; always use --approve.
  --roots ignore|narrow         The client's roots: ignore them (default), or let them
                                narrow the mounts (an intersection; never wider).
  -h, --help                    Show this help.
  -v, --version                 Show the version.

Example:
  sandbox-approval mcp --mount ./src:/src:rw --mount ./docs:/docs:ro --approve deny
`;

/** Parses `--mount HOST:VIRTUAL[:ro|rw]`; the host part may itself contain ":" (e.g. "C:\\src"). */
export function parseMount(spec: string): MountInput {
  const parts = spec.split(':');
  let mode: 'ro' | 'rw' = 'ro';
  const last = parts.at(-1);
  if (parts.length >= 3 && (last === 'ro' || last === 'rw')) {
    mode = last;
    parts.pop();
  }
  const mountPoint = parts.pop() ?? '';
  const hostPath = parts.join(':');
  if (parts.length === 0 || hostPath === '' || !mountPoint.startsWith('/')) {
    throw new CliUsageError(
      `--mount "${spec}": expected HOST:VIRTUAL[:ro|rw], e.g. ./src:/src:rw (VIRTUAL starts with "/").`,
    );
  }
  return { hostPath, mountPoint, mode };
}

export function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = { command: 'mcp', mounts: [], elicitation: true };
  const args = [...argv];
  const first = args[0];
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    return { ...options, command: 'help' };
  }
  if (first === '-v' || first === '--version') return { ...options, command: 'version' };
  if (first !== 'mcp')
    throw new CliUsageError(`Unknown command "${first}". The command is: sandbox-approval mcp`);
  args.shift();
  const value = (flag: string, inline: string | undefined): string => {
    const v = inline ?? args.shift();
    if (v === undefined || (inline === undefined && v.startsWith('--')))
      throw new CliUsageError(`${flag} needs a value.`);
    return v;
  };
  while (args.length > 0) {
    const arg = args.shift()!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    switch (flag) {
      case '-h':
      case '--help':
        return { ...options, command: 'help' };
      case '-v':
      case '--version':
        return { ...options, command: 'version' };
      case '--mount':
        options.mounts.push(parseMount(value(flag, inline)));
        break;
      case '--config':
        options.config = value(flag, inline);
        break;
      case '--approve': {
        const mode = value(flag, inline);
        if (!(APPROVE_MODES as readonly string[]).includes(mode))
          throw new CliUsageError(`--approve must be one of ${APPROVE_MODES.join(', ')}; got "${mode}".`);
        options.approve = mode as ApproveMode;
        break;
      }
      case '--policy':
        options.policy = value(flag, inline);
        break;
      case '--tools':
        options.tools = value(flag, inline)
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t !== '');
        break;
      case '--roots': {
        const mode = value(flag, inline);
        if (!(ROOTS_MODES as readonly string[]).includes(mode))
          throw new CliUsageError(`--roots must be one of ${ROOTS_MODES.join(', ')}; got "${mode}".`);
        options.roots = mode as RootsMode;
        break;
      }
      case '--no-elicitation':
        options.elicitation = false;
        break;
      default:
        throw new CliUsageError(`Unknown option "${arg}".`);
    }
  }
  return options;
}
