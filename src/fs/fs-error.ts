import { type ErrorCode, SandboxError } from '../contract/errors.js';

export type FsErrorCode = Extract<
  ErrorCode,
  | 'not_found'
  | 'not_a_file'
  | 'binary_file'
  | 'file_too_large'
  | 'path_not_in_sandbox'
  | 'io_error'
  | 'invalid_argument'
  | 'stale_approval'
>;

/** An I/O-layer failure. Messages name the caller's display (virtual) path, never a host path. */
export class FsError extends SandboxError {
  constructor(code: FsErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details ? { details } : {});
  }
}
