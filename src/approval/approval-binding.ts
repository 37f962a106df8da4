import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { CallTargets } from '../contract/approval-types.js';
import type { ApprovalPayload } from '../contract/payloads.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { ToolErrorInfo } from '../contract/tool-outcome.js';
import { sha256Hex } from '../fs/state-tracker.js';
import { copyFields, lazyStringOf, shareField } from '../text/lazy-string.js';
import { argumentsFromJson, type CallArguments, captureArguments } from './call-arguments.js';
import { canonicalJson } from './canonical-json.js';

/**
 * What a person decided about one call, as a plain JSON object: recorded when
 * the request is shown (with the arguments and file states it was shown with)
 * and checked when the call executes, in blocking and native mode alike. It can
 * be stored and verified in another process (`verifyBinding`), so an approval
 * asked now may be executed later.
 */
export interface ApprovalBinding {
  v: 1;
  toolName: string;
  toolCallId?: string;
  /** Identity of the sandbox the call was shown for (Sandbox#identity). */
  sandboxId?: string;
  /** Canonical JSON of the arguments the model sent, as shown to the person. */
  requestedArgs: string;
  /** Canonical JSON of the arguments that run: the requested ones, or the person's edited version. */
  runArgs: string;
  approved: boolean;
  note?: string;
  /** 'system': a refusal nobody saw (a policy, no terminal); absent: the person decided. */
  decidedBy?: 'system';
  /** The file states the person was shown: SHA-256 of the file (null: it did not exist). */
  baseSha256?: string | null;
  destinationSha256?: string | null;
  /** edit_lines: SHA-256 of the hashed read its anchors were resolved against (null: none). */
  anchorsSha256?: string | null;
  /** The files the person was shown the call for (real paths, links, identities): re-resolved at execution. */
  targets?: CallTargets;
  /** The change shown, for diff payloads (see rebase.ts): path and unified diff. */
  shownPath: string;
  shownDiff?: string;
  payloadType: ApprovalPayload['type'];
  decidedAt: string;
  /** SHA-256 (or HMAC-SHA256 with a secret) of every other field: a stored record that was altered is refused. */
  seal: string;
}

export interface BindingInput {
  toolName: string;
  toolCallId?: string;
  sandboxId?: string;
  requested: CallArguments;
  /** The payload as computed by the tool (before the callback saw its own copy). */
  payload: ApprovalPayload;
  approved: boolean;
  note?: string;
  decidedBy?: 'user' | 'system';
  /** The person's edited arguments, captured. */
  edited?: CallArguments;
  /** The files the payload was computed for (ApprovalResult#targets). */
  targets?: CallTargets;
}

export interface BindingOptions {
  /** Key for an HMAC seal, for records kept where others can write (a store shared between processes). */
  secret?: string | Uint8Array;
}

/** Records a decision; the result is frozen and JSON-serialisable. */
export function createBinding(input: BindingInput, options: BindingOptions = {}): Readonly<ApprovalBinding> {
  const p = input.payload;
  // A diff written when first read stays unread: the binding reads it when it is serialised
  // or sealed, or a rebase compares it (see lazy-string.ts).
  const hasDiff =
    lazyStringOf(p, 'unifiedDiff') !== undefined ||
    typeof (p as { unifiedDiff?: unknown }).unifiedDiff === 'string';
  const coarse = (p as { diffCoarse?: unknown }).diffCoarse === true;
  const showsDiff = hasDiff && !coarse && !input.edited;
  const requested = input.requested;
  const run = input.edited ?? input.requested;
  const body: Fields = {
    v: 1,
    toolName: input.toolName,
    ...(input.toolCallId !== undefined ? { toolCallId: input.toolCallId } : {}),
    ...(input.sandboxId !== undefined ? { sandboxId: input.sandboxId } : {}),
    approved: input.approved,
    ...(input.note !== undefined ? { note: input.note } : {}),
    ...(input.decidedBy === 'system' ? { decidedBy: 'system' as const } : {}),
    ...(p.baseSha256 !== undefined ? { baseSha256: p.baseSha256 } : {}),
    ...((p.type === 'move' || p.type === 'copy') && p.destinationSha256 !== undefined
      ? { destinationSha256: p.destinationSha256 }
      : {}),
    ...(p.type === 'lines' && p.anchorsSha256 !== undefined ? { anchorsSha256: p.anchorsSha256 } : {}),
    ...(input.targets ? { targets: deepFreeze(structuredClone(input.targets)) } : {}),
    shownPath: p.path,
    ...(showsDiff ? { shownDiff: '' } : {}),
    payloadType: p.type,
    decidedAt: new Date().toISOString(),
  };
  if (showsDiff) shareField(body, 'shownDiff', p, 'unifiedDiff');
  // The two argument JSONs and the seal are worked out when the record is serialised or
  // read: checked in this process (the captures are kept, see `made`), it needs neither,
  // a 40 MB `content` is never held again as JSON, and its digest is taken only then.
  let seal: string | undefined;
  // The key as it is now: a caller's buffer changed later must not change the seal.
  const secret = options.secret instanceof Uint8Array ? Uint8Array.from(options.secret) : options.secret;
  const binding = Object.defineProperties(copyFields(body, {}), {
    requestedArgs: { get: () => requested.json, enumerable: true },
    runArgs: { get: () => run.json, enumerable: true },
    seal: {
      get: () => {
        seal ??= sealOf(body, { requested: requested.digest, run: run.digest }, secret);
        return seal;
      },
      enumerable: true,
    },
  }) as ApprovalBinding;
  Object.freeze(binding);
  made.set(binding, { requested, run, secret: keyBytes(secret) });
  return binding;
}

/** Every field but the seal and the two argument JSONs (which the seal covers by digest). */
type Fields = Omit<ApprovalBinding, 'seal' | 'requestedArgs' | 'runArgs'>;

/**
 * Bindings made in this process, deep-frozen (nothing in them can change), with
 * the captured arguments that run: checking one again needs no seal recomputed
 * and no arguments parsed back, unless it is checked under another secret.
 */
const made = new WeakMap<
  object,
  { requested: CallArguments; run: CallArguments; secret: Buffer | undefined }
>();

/** A seal key as the bytes HMAC uses (a string as UTF-8), copied: later changes to the caller's buffer do not reach it. */
function keyBytes(secret: string | Uint8Array | undefined): Buffer | undefined {
  return secret === undefined
    ? undefined
    : Buffer.from(typeof secret === 'string' ? secret : Uint8Array.from(secret));
}

function sameKey(a: Buffer | undefined, b: Buffer | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The call as it arrives for execution. */
export interface ExecutingCall {
  toolName: string;
  toolCallId?: string;
  sandboxId?: string;
  args: unknown;
}

export type BindingCheck =
  | { ok: true; args: CallArguments; context: ToolCallContext; edited: boolean }
  | { ok: false; error: ToolErrorInfo };

/**
 * Checks a call about to execute against the recorded decision: same tool, call
 * id, sandbox and arguments (canonical JSON), and an intact seal. A denial stays
 * a denial. On success, the arguments to run and the file states to bind.
 */
export function verifyBinding(
  binding: unknown,
  call: ExecutingCall,
  options: BindingOptions = {},
): BindingCheck {
  const b = binding as ApprovalBinding;
  const own = typeof binding === 'object' && binding !== null ? made.get(binding) : undefined;
  // Intact only under the very key it was made with, by value: a caller's key buffer changed
  // since (or another key) makes the record be checked by its seal like any copy.
  const intact = own !== undefined && sameKey(own.secret, keyBytes(options.secret));
  if (!intact && (!isBinding(binding) || !sameSeal(b.seal, sealOfRecord(b, options.secret))))
    return stale(call, 'the approval record is malformed or was altered after the decision');
  if (b.toolName !== call.toolName) return stale(call, `the approval was given for ${b.toolName}`);
  if (b.toolCallId !== undefined && b.toolCallId !== call.toolCallId)
    return stale(call, 'the approval was given for another call id');
  if (b.sandboxId !== undefined && b.sandboxId !== call.sandboxId)
    return stale(call, 'the approval was given in another sandbox');
  let now: CallArguments;
  try {
    now = captureArguments(call.args);
  } catch {
    return stale(call, 'its arguments cannot be compared with the approved ones');
  }
  // The very capture that was approved (this process) is equal without hashing it.
  const same = own
    ? now === own.requested || now.digest === own.requested.digest
    : now.digest === sha256Hex(b.requestedArgs);
  if (!same) return stale(call, 'its arguments differ from the ones the user was shown and approved');
  if (!b.approved) return { ok: false, error: deniedError(b) };
  return {
    ok: true,
    args: intact ? own.run : argumentsFromJson(b.runArgs),
    context: boundContext(b),
    edited: own
      ? own.run !== own.requested && own.run.digest !== own.requested.digest
      : b.runArgs !== b.requestedArgs,
  };
}

/** The file states execution must still find (tools refuse with stale_approval otherwise). */
export function boundContext(b: ApprovalBinding): ToolCallContext {
  return {
    ...(b.toolCallId !== undefined ? { toolCallId: b.toolCallId } : {}),
    ...(b.baseSha256 !== undefined ? { approvedBaseSha256: b.baseSha256 } : {}),
    ...(b.destinationSha256 !== undefined ? { approvedDestinationSha256: b.destinationSha256 } : {}),
    ...(b.anchorsSha256 !== undefined ? { approvedAnchorsSha256: b.anchorsSha256 } : {}),
    ...(b.targets !== undefined ? { approvedTargets: b.targets } : {}),
  };
}

/** The denial's outcome: what the model is told. */
export function deniedError(b: {
  toolName: string;
  shownPath?: string;
  note?: string;
  decidedBy?: 'user' | 'system';
}): ToolErrorInfo {
  const what = b.shownPath ? `${b.toolName} on ${b.shownPath}` : b.toolName;
  if (b.decidedBy === 'system') {
    // Nobody was asked: saying "the user said" would put words in a person's mouth.
    return {
      code: 'approval_denied',
      message: `${what} was refused without asking anyone${b.note ? `: ${b.note}` : '.'} Nothing was changed. Do not retry the same call unchanged.`,
      ...(b.note ? { details: { note: b.note, decidedBy: 'system' } } : { details: { decidedBy: 'system' } }),
    };
  }
  return {
    code: 'approval_denied',
    message: b.note
      ? `The user denied ${what} and said: "${b.note}". Do not retry the same call unchanged; follow the user's note.`
      : `The user denied ${what}. Do not retry the same call unchanged; change your approach or ask the user what they want.`,
    ...(b.note ? { details: { note: b.note } } : {}),
  };
}

/** A call that needed approval but has no recorded decision: never run blind. */
export function unapprovedError(toolName: string, toolCallId: string | undefined): ToolErrorInfo {
  return {
    code: 'approval_blocked',
    message: `${toolName}${toolCallId ? ` (call ${toolCallId})` : ''} needs approval, but no approval was recorded for it, so it was not run. Nothing was changed. Make the call again; it will be shown to the user.`,
  };
}

function stale(call: ExecutingCall, why: string): BindingCheck {
  return {
    ok: false,
    error: {
      code: 'stale_approval',
      message: `${call.toolName} was not run: ${why}. Nothing was changed. Make the call again to have it approved as it is.`,
    },
  };
}

/** The seal a stored record should carry, from its own fields. */
function sealOfRecord(b: ApprovalBinding, secret: string | Uint8Array | undefined): string {
  const { seal: _seal, requestedArgs, runArgs, ...fields } = b;
  const requested = sha256Hex(requestedArgs);
  return sealOf(
    fields,
    { requested, run: runArgs === requestedArgs ? requested : sha256Hex(runArgs) },
    secret,
  );
}

/**
 * The seal: SHA-256 (HMAC with a secret) of the canonical JSON of every other
 * field, the two argument JSONs stood in for by their SHA-256 (`sha256:<hex>`), so
 * a 40 MB `content` is hashed once instead of serialised twice more.
 */
function sealOf(
  fields: Fields,
  args: { requested: string; run: string },
  secret: string | Uint8Array | undefined,
): string {
  const text = canonicalJson({
    ...fields,
    requestedArgs: `sha256:${args.requested}`,
    runArgs: `sha256:${args.run}`,
  });
  return secret === undefined
    ? createHash('sha256').update(text).digest('hex')
    : createHmac('sha256', secret).update(text).digest('hex');
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function isBinding(value: unknown): value is ApprovalBinding {
  const b = value as Partial<ApprovalBinding> | null;
  return (
    b !== null &&
    typeof b === 'object' &&
    b.v === 1 &&
    typeof b.toolName === 'string' &&
    typeof b.requestedArgs === 'string' &&
    typeof b.runArgs === 'string' &&
    typeof b.approved === 'boolean' &&
    typeof b.seal === 'string'
  );
}

/** Constant-time comparison of two seals. */
function sameSeal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
