import type { ErrorCode } from './errors.js';

/** A failure as tools and the approval layer report it: a stable code, virtual paths only. */
export interface ToolErrorInfo {
  code: ErrorCode;
  message: string;
  suggestions?: string[];
  details?: Record<string, unknown>;
}

export type ToolOutcome<O = unknown> = { ok: true; data: O } | { ok: false; error: ToolErrorInfo };
