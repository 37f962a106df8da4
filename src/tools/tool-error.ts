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

/** What V8 throws when a string, array or buffer would outgrow what it can hold: a size problem. */
const OUT_OF_ROOM = /^(Invalid (string|array|typed array) length|Array buffer allocation failed)/;

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
  // Node's own refusal of a string too long to make (Buffer#toString) is the same size problem.
  const tooLong = (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_STRING_TOO_LONG';
  if (tooLong || (error instanceof RangeError && OUT_OF_ROOM.test(error.message))) {
    return {
      code: 'file_too_large',
      message:
        'The result would be too large to hold in memory (a JavaScript string holds at most about 512 MiB). Nothing was changed. Make the change in smaller steps, or split the file.',
    };
  }
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  return {
    code: 'io_error',
    message: `The file operation failed${errno ? ` (${errno})` : ''}. Nothing was changed; try again or choose another path.`,
  };
}
