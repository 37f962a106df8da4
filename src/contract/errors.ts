/**
 * Stable error codes shared by the sandbox, the tools and the approval layer.
 * Models and callers branch on `code`; messages are for humans and models.
 */
export const ERROR_CODES = [
  'invalid_argument',
  'path_not_in_sandbox',
  'path_not_writable',
  'suffix_not_allowed',
  'file_too_large',
  'not_found',
  'not_a_file',
  'binary_file',
  'edit_not_found',
  'edit_not_unique',
  'state_mismatch',
  'stale_approval',
  'invalid_diff',
  'anchor_stale',
  'anchor_ambiguous',
  'anchor_context_ambiguous',
  'anchor_low_entropy',
  'invalid_range_order',
  'safety_check_failed',
  'approval_denied',
  'approval_blocked',
  'io_error',
  'tool_failed',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface SandboxErrorOptions {
  suggestions?: string[];
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Every expected failure, told apart by `code` (one class: callers branch on the
 * code, which is also what tool outcomes carry). Messages speak virtual paths only.
 */
export class SandboxError extends Error {
  readonly code: ErrorCode;
  readonly suggestions: string[];
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: SandboxErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.suggestions = options.suggestions ?? [];
    this.details = options.details;
  }

  /** The plain-object form used in tool outcomes. */
  toJSON(): { code: ErrorCode; message: string; suggestions?: string[]; details?: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      ...(this.suggestions.length > 0 ? { suggestions: this.suggestions } : {}),
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

/** A bad Sandbox configuration; lists every problem found at once. */
export class SandboxConfigError extends SandboxError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super('invalid_argument', `Invalid sandbox configuration:\n${problems.map((p) => `- ${p}`).join('\n')}`, {
      details: { problems },
    });
    this.problems = problems;
  }
}
