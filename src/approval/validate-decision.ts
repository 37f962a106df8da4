import type { ApprovalDecision, RememberScopeName } from './types.js';

/** Callbacks must return a decision object; a bare boolean is a bug in the caller, as in the original. */
export function validateDecision(value: unknown): ApprovalDecision {
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof (value as { approved?: unknown }).approved !== 'boolean'
  ) {
    throw new TypeError(
      `An approval callback must return an ApprovalDecision object such as { approved: true }, got ${value === null ? 'null' : typeof value}${typeof value === 'boolean' ? ` (${String(value)})` : ''}.`,
    );
  }
  return value as ApprovalDecision;
}

/** 'session' means this exact call; a scope object names its scope; 'none' or nothing remembers nothing. */
export function rememberScopeOf(decision: ApprovalDecision): RememberScopeName | undefined {
  const r = decision.remember;
  if (r === undefined || r === 'none') return undefined;
  if (r === 'session') return 'call';
  return r.scope;
}
