import type { ApprovalDecision, ApprovalRequest, RememberScopeName } from '../contract/approval-types.js';

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

/**
 * A decision that edits the call (overrideArgs) and asks to be remembered: what is
 * remembered is keyed by the call as the model sent it, which the person did not
 * approve as sent. "This exact call" is then refused outright, and a wider scope only
 * while the edit keeps the files the call names (else the next call on the model's
 * file would run unasked). Refused as a TypeError, like any malformed decision.
 */
function checkRememberedEdit(args: unknown, decision: ApprovalDecision): void {
  const scope = rememberScopeOf(decision);
  if (!decision.approved || decision.overrideArgs === undefined || scope === undefined) return;
  if (scope === 'call')
    throw new TypeError(
      "An ApprovalDecision that edits the call (overrideArgs) cannot also remember this exact call: the model's call as sent was not approved. Remember nothing, or a file, mount or tool scope.",
    );
  if (filesNamed(args) !== filesNamed(decision.overrideArgs))
    throw new TypeError(
      'An ApprovalDecision whose overrideArgs change the files the call names cannot also be remembered: the scope would cover the file the model named, which the person did not approve. Remember nothing for such an edit.',
    );
}

/** 'session' means this exact call; a scope object names its scope; 'none' or nothing remembers nothing. */
export function rememberScopeOf(decision: ApprovalDecision): RememberScopeName | undefined {
  const r = decision.remember;
  if (r === undefined || r === 'none') return undefined;
  if (r === 'session') return 'call';
  return r.scope;
}

/** Fields that name files, by role. */
const FILE_FIELDS = ['path', 'file_path', 'source', 'destination', 'paths'] as const;

/**
 * The files a call names, each field as given and in its role (no trimming, no
 * sorting: "/a.txt " is another file, and a copy a → b turned into b → a names
 * other roles), for comparing a call with a person's edit of it.
 */
function filesNamed(args: unknown): string {
  if (args === null || typeof args !== 'object') return '';
  const a = args as Record<string, unknown>;
  return JSON.stringify(FILE_FIELDS.map((field) => a[field] ?? null));
}

/**
 * checkRememberedEdit, and for a file or mount scope also what the edited call acts
 * on, as its own payload describes it (the only view a custom tool gives): the
 * scope is keyed by the model's payload, so the edited call must name the very same
 * file, destination and mounts, or nothing is remembered (TypeError).
 */
export async function checkRememberedTargets(
  request: ApprovalRequest,
  decision: ApprovalDecision,
): Promise<void> {
  checkRememberedEdit(request.args, decision);
  const scope = rememberScopeOf(decision);
  if (!decision.approved || decision.overrideArgs === undefined || (scope !== 'file' && scope !== 'mount'))
    return;
  const edited = await request.previewEdit?.(decision.overrideArgs);
  const shown = request.payload as unknown as Record<string, unknown>;
  const now =
    edited?.status === 'needs_approval' ? (edited.payload as unknown as Record<string, unknown>) : undefined;
  const same = now !== undefined && PAYLOAD_TARGETS.every((field) => now[field] === shown[field]);
  if (!same)
    throw new TypeError(
      'An ApprovalDecision whose overrideArgs change what the call acts on cannot also be remembered: the scope would cover the file the model named, which the person did not approve. Remember nothing for such an edit.',
    );
}

/** Payload fields that name what a call acts on (and a remembered scope is keyed by). */
const PAYLOAD_TARGETS = ['path', 'mount', 'source', 'destination', 'destinationMount'] as const;
