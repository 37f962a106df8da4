import { type ErrorCode, SandboxError } from '../contract/errors.js';
import type { ToolErrorInfo } from '../contract/tool-outcome.js';
import { FsError } from '../fs/fs-error.js';

/** An expected tool failure raised inside a tool's execute; becomes `{ ok: false }`. */
class ToolError extends SandboxError {}

export function toolError(
  code: ErrorCode,
  message: string,
  extra: { suggestions?: string[]; details?: Record<string, unknown> } = {},
): ToolError {
  return new ToolError(code, message, extra);
}

/**
 * Converts anything thrown during a call into the error envelope. Unknown errors
 * become `io_error` with only their errno code: Node's messages embed host paths.
 */
export function toErrorInfo(error: unknown): ToolErrorInfo {
  if (error instanceof SandboxError) return error.toJSON();
  if (error instanceof FsError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: { ...error.details } } : {}),
    };
  }
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  return {
    code: 'io_error',
    message: `The file operation failed${errno ? ` (${errno})` : ''}. Nothing was changed; try again or choose another path.`,
  };
}
