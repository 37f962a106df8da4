import { randomBytes } from 'node:crypto';

export { CHANGESET_JOURNAL_DIR, isApplyEntryName } from '../contract/reserved-names.js';

/**
 * Names used while a reviewed change set is applied: a journal directory in each
 * mount root and one temp file per written file. Listings never show them.
 * The temp names differ from atomic-write temp names on purpose: the stale-temp
 * sweeper must never remove a file a committed journal still has to rename.
 */
export function applyTempName(target: string): string {
  return `.${target.slice(0, 100)}.sandbox-approval-apply-${randomBytes(6).toString('hex')}.tmp`;
}
