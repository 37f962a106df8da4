import type { ApprovalCallback, ApprovalDecision } from '../contract/approval-types.js';
import { type ApprovalMemory, rememberedDecision } from './approval-memory.js';
import { requestCopy } from './call-arguments.js';
import { checkRememberedTargets, rememberScopeOf, validateDecision } from './validate-decision.js';

/** Approves everything that reaches it (blocked calls never do). For trusted, unattended runs. */
export function approveAll(): ApprovalCallback {
  return () => ({ approved: true });
}

/** Denies everything that needs approval, with a note for the model. */
export function denyAll(note = 'Changes are not allowed in this session.'): ApprovalCallback {
  return () => ({ approved: false, note, decidedBy: 'system' });
}

/** CI mode: only pre-approved operations run; anything that would need a person is denied. */
export function strict(): ApprovalCallback {
  return () => ({
    approved: false,
    decidedBy: 'system',
    note: 'Strict mode is on: only pre-approved operations may run, and this one needs approval. Do not retry it; report what you wanted to change instead.',
  });
}

/** Consults `memory` before `callback`, and records decisions that ask to be remembered. */
export function withMemory(callback: ApprovalCallback, memory: ApprovalMemory): ApprovalCallback {
  return async (request) => {
    const hit = memory.lookup(request);
    if (hit) return rememberedDecision(hit);
    const decision: ApprovalDecision = validateDecision(await callback(requestCopy(request)));
    await checkRememberedTargets(request, decision);
    const scope = rememberScopeOf(decision);
    if (scope) memory.remember(request, scope, decision.approved, decision.note);
    return decision;
  };
}
