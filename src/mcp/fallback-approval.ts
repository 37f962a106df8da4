import fs from 'node:fs';
import tty from 'node:tty';
import type { ApprovalCallback, ApprovalMemoryView, ApprovalRequest } from '../contract/approval-types.js';
import { terminalApprover } from '../terminal/terminal-approver.js';

/** How the server decides when the client cannot be asked (no elicitation support). */
export type ApproveMode = 'deny' | 'tty' | 'policy';
export const APPROVE_MODES: readonly ApproveMode[] = ['deny', 'tty', 'policy'];

/**
 * Thrown by a fallback that refuses on the server's behalf (no one was asked).
 * The MCP server reports it as `approval_blocked` with this message.
 */
export class ApprovalUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApprovalUnavailable';
  }
}

const what = (r: ApprovalRequest) => (r.payload.path ? `${r.toolName} on ${r.payload.path}` : r.toolName);

const HOW_TO_ENABLE =
  'To allow changes, use an MCP client that supports elicitation (the server then asks the user), or restart the server with --approve tty (asks on the terminal it runs in) or --approve policy with a policy file of pre-approved tools and paths.';

/** `deny` mode: everything that needs approval is refused, saying how to enable approvals. */
export function denyFallback(reason = 'the server runs with --approve deny'): ApprovalCallback {
  return (request) => {
    throw new ApprovalUnavailable(
      `${what(request)} needs the user's approval, but this MCP client cannot ask the user (it does not support elicitation) and ${reason}. Nothing was changed. ${HOW_TO_ENABLE}`,
    );
  };
}

/** `policy` mode with no matching rule: refused, naming the policy. */
export function policyFallback(): ApprovalCallback {
  return (request) => {
    throw new ApprovalUnavailable(
      `${what(request)} needs the user's approval: no rule of the server's approval policy allows it, and this MCP client cannot ask the user (no elicitation support). Nothing was changed. Change something the policy allows, or ask the user to extend the policy.`,
    );
  };
}

export interface TtyFallbackOptions {
  /** Device to open (default /dev/tty, the controlling terminal). */
  device?: string;
  memory?: ApprovalMemoryView;
}

/**
 * `tty` mode: the terminal approval UI on the controlling terminal (stdin and
 * stdout are the MCP protocol, so the UI opens /dev/tty itself). Opened on the
 * first request; without a controlling terminal every request is refused.
 */
export function ttyFallback(options: TtyFallbackOptions = {}): ApprovalCallback {
  let approver: ApprovalCallback | undefined;
  let failure: string | undefined;
  const open = (): ApprovalCallback => {
    if (approver) return approver;
    if (failure) return denyFallback(failure);
    try {
      const fd = fs.openSync(options.device ?? '/dev/tty', 'r+');
      if (!tty.isatty(fd)) {
        fs.closeSync(fd);
        throw new Error('not a terminal');
      }
      const input = new tty.ReadStream(fd);
      const output = new tty.WriteStream(fd);
      approver = terminalApprover({ input, output, ...(options.memory ? { memory: options.memory } : {}) });
      return approver;
    } catch {
      failure = 'the server runs with --approve tty but has no controlling terminal to ask on';
      return denyFallback(failure);
    }
  };
  return (request) => open()(request);
}
