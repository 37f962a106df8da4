import type { ApprovalDecision, RememberScopeName } from '../contract/approval-types.js';

const SCOPE_NAMES: readonly string[] = ['call', 'file', 'mount', 'tool'] satisfies RememberScopeName[];

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return `boolean (${String(value)})`;
  return typeof value;
}

/**
 * Callbacks must return a decision object; a bare boolean is a bug in the caller
 * (`true` would otherwise carry no note, scope or edit). A `remember` the layer does not understand is refused too:
 * it must never be read as a wider (or silently dropped) scope.
 */
export function validateDecision(value: unknown): ApprovalDecision {
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof (value as { approved?: unknown }).approved !== 'boolean'
  ) {
    throw new TypeError(
      `An approval callback must return an ApprovalDecision object such as { approved: true }, got ${typeName(value)}.`,
    );
  }
  const { remember, note, overrideArgs, decidedBy } = value as Record<string, unknown>;
  if (decidedBy !== undefined && decidedBy !== 'user' && decidedBy !== 'system')
    throw new TypeError(
      `ApprovalDecision.decidedBy must be 'user' or 'system', got ${JSON.stringify(decidedBy)}.`,
    );
  const validRemember =
    remember === undefined ||
    remember === 'none' ||
    remember === 'session' ||
    (typeof remember === 'object' &&
      remember !== null &&
      SCOPE_NAMES.includes((remember as { scope?: unknown }).scope as string));
  if (!validRemember) {
    throw new TypeError(
      `ApprovalDecision.remember must be 'none', 'session' or { scope: 'call' | 'file' | 'mount' | 'tool' }, got ${JSON.stringify(remember)}.`,
    );
  }
  if (note !== undefined && typeof note !== 'string')
    throw new TypeError(`ApprovalDecision.note must be a string, got ${typeName(note)}.`);
  if (overrideArgs !== undefined && (overrideArgs === null || typeof overrideArgs !== 'object'))
    throw new TypeError(`ApprovalDecision.overrideArgs must be an object, got ${typeName(overrideArgs)}.`);
  return value as ApprovalDecision;
}

/** 'session' means this exact call; a scope object names its scope; 'none' or nothing remembers nothing. */
export function rememberScopeOf(decision: ApprovalDecision): RememberScopeName | undefined {
  const r = decision.remember;
  if (r === undefined || r === 'none') return undefined;
  if (r === 'session') return 'call';
  return r.scope;
}
