/**
 * Names the library itself uses inside mounts while a reviewed change set is
 * applied: a journal directory in each mount root and one temp file per written
 * file. No tool may name them (a planted journal would be carried out by crash
 * recovery), and listings never show them.
 */
export const CHANGESET_JOURNAL_DIR = '.sandbox-approval-changesets';

/** An apply temp file's name (distinct from atomic-write temps, which the stale-temp sweeper may remove). */
export const APPLY_TEMP = /^\..*\.sandbox-approval-apply-[0-9a-f]{12}\.tmp$/s;

/** True for the journal directory and apply temp files. */
export function isApplyEntryName(name: string): boolean {
  return name === CHANGESET_JOURNAL_DIR || APPLY_TEMP.test(name);
}
