import { randomBytes } from 'node:crypto';

/**
 * Names used while a reviewed change set is applied: a journal directory in each
 * mount root and one temp file per written file. Listings never show them.
 * The temp names differ from atomic-write temp names on purpose: the stale-temp
 * sweeper must never remove a file a committed journal still has to rename.
 */
export const CHANGESET_JOURNAL_DIR = '.sandbox-approval-changesets';

const APPLY_TEMP = /^\..*\.sandbox-approval-apply-[0-9a-f]{12}\.tmp$/s;

export function applyTempName(target: string): string {
  return `.${target.slice(0, 100)}.sandbox-approval-apply-${randomBytes(6).toString('hex')}.tmp`;
}

/** True for the journal directory and apply temp files (hidden from list_files). */
export function isApplyEntryName(name: string): boolean {
  return name === CHANGESET_JOURNAL_DIR || APPLY_TEMP.test(name);
}
