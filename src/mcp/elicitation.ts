import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalDecision, ApprovalRequest, RememberScopeName } from '../approval/types.js';
import { type PayloadTextOptions, payloadText } from './payload-text.js';

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

function choiceTitles(request: ApprovalRequest): Record<ElicitationChoice, string> {
  const { toolName, payload } = request;
  return {
    approve: 'Approve',
    approve_file: `Approve, and allow ${toolName} on ${payload.path || 'this file'} for this session`,
    approve_mount: `Approve, and allow ${toolName} anywhere under ${payload.mount || 'this mount'} for this session`,
    approve_tool: `Approve, and allow ${toolName} everywhere for this session`,
    deny: 'Deny',
  };
}

/** The `elicitation/create` parameters for one approval request: the rendered payload and the decision form. */
export function approvalElicitation(
  request: ApprovalRequest,
  options: PayloadTextOptions = {},
): ElicitRequestFormParams {
  const titles = choiceTitles(request);
  return {
    mode: 'form',
    message: `Approve this ${request.toolName} call?\n\n${payloadText(request, options)}`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          description: 'Approve (optionally remembering it for this session) or deny.',
          oneOf: ELICITATION_CHOICES.map((c) => ({ const: c, title: titles[c] })),
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
    },
  };
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
