import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalDecision, ApprovalRequest, RememberScopeName } from '../contract/approval-types.js';
import { sanitizeLine } from '../terminal/sanitize.js';
import { escapeMarkdown, fenceFor, type PayloadTextOptions, payloadText } from './payload-text.js';

/** The answers the approval form offers, in the order shown. */
export const ELICITATION_CHOICES = [
  'approve',
  'approve_file',
  'approve_mount',
  'approve_tool',
  'deny',
] as const;
export type ElicitationChoice = (typeof ELICITATION_CHOICES)[number];

const REMEMBER: Partial<Record<ElicitationChoice, RememberScopeName>> = {
  approve_file: 'file',
  approve_mount: 'mount',
  approve_tool: 'tool',
};

/** Note given to the model when the person dismissed the form without answering. */
export const CANCELLED_NOTE =
  'The user dismissed the approval request without answering, so nothing was changed. Do not retry unchanged; ask the user how to proceed.';

const CHOICE_TITLES: Record<ElicitationChoice, string> = {
  approve: 'Approve',
  approve_file: 'Approve, and allow this tool on this file for the session',
  approve_mount: 'Approve, and allow this tool anywhere under this mount for the session',
  approve_tool: 'Approve, and allow this tool everywhere for the session',
  deny: 'Deny',
};

/**
 * One schema object for every request: the SDK validates each answer against
 * it with Ajv, which compiles (~10 ms) and caches per schema object, so a fresh
 * object per request would cost that every time and grow the cache forever.
 * What differs per request (file, mount, tool) is in the message.
 */
const REQUESTED_SCHEMA: ElicitRequestFormParams['requestedSchema'] = Object.freeze({
  type: 'object',
  properties: {
    decision: {
      type: 'string',
      title: 'Decision',
      description: 'Approve (optionally remembering it for this session) or deny.',
      oneOf: ELICITATION_CHOICES.map((c) => ({ const: c, title: CHOICE_TITLES[c] })),
      default: 'approve',
    },
    note: {
      type: 'string',
      title: 'Note',
      description: 'Optional: tell the agent why, or what to do instead (sent to the model).',
      maxLength: 2000,
    },
  },
  required: ['decision'],
}) as ElicitRequestFormParams['requestedSchema'];

/** The `elicitation/create` parameters for one approval request: the rendered payload and the decision form. */
export function approvalElicitation(
  request: ApprovalRequest,
  options: PayloadTextOptions = {},
): ElicitRequestFormParams {
  const { toolName, payload } = request;
  const scopes = [
    payload.path ? `this file = ${shownName(payload.path)}` : '',
    payload.mount ? `this mount = ${shownName(payload.mount)}` : '',
    `this tool = ${toolName}`,
  ].filter((x) => x !== '');
  return {
    mode: 'form',
    message: [
      `Approve this ${toolName} call?`,
      '',
      payloadText(request, options),
      ...movedEntries(payload),
      '',
      `(Remember choices: ${scopes.join(', ')}.)`,
    ].join('\n'),
    requestedSchema: REQUESTED_SCHEMA,
  };
}

/** A directory move's payload lists what moves: shown after the move itself (at most 50 lines). */
function movedEntries(payload: ApprovalRequest['payload']): string[] {
  const { entries, entryCount } = payload as { entries?: unknown; entryCount?: unknown };
  if (!Array.isArray(entries) || typeof entryCount !== 'number') return [];
  const shown = entries.slice(0, 50).map((e) => `  ${sanitizeLine(String(e))}`);
  const more = entryCount - shown.length;
  const block = [...shown, ...(more > 0 ? [`  … ${more} more`] : [])].join('\n');
  const fence = fenceFor(block);
  return ['', `${shownName(payload.description)}:`, `${fence}text`, block, fence];
}

/** A name outside the fenced body: invisible characters as tokens, Markdown escaped (hosts render it). */
function shownName(text: string): string {
  return escapeMarkdown(sanitizeLine(text));
}

/**
 * The person's answer as an approval decision. accept + an approve choice →
 * approved (remembered per the choice); accept + deny, or decline → denied with
 * the note; cancel (dismissed) → denied with a note saying so. Anything the form
 * does not define is a denial: an unreadable answer never approves.
 */
export function decisionFromElicitation(result: ElicitResult): ApprovalDecision {
  const content = (result.content ?? {}) as Record<string, unknown>;
  const note =
    typeof content.note === 'string' && content.note.trim() !== '' ? content.note.trim() : undefined;
  if (result.action === 'cancel') return { approved: false, note: note ?? CANCELLED_NOTE };
  const choice = content.decision;
  if (result.action !== 'accept' || typeof choice !== 'string' || !isChoice(choice) || choice === 'deny') {
    return note ? { approved: false, note } : { approved: false };
  }
  const scope = REMEMBER[choice];
  return {
    approved: true,
    ...(note ? { note } : {}),
    ...(scope ? { remember: { scope } } : {}),
  };
}

function isChoice(value: string): value is ElicitationChoice {
  return (ELICITATION_CHOICES as readonly string[]).includes(value);
}
