import type { ToolOutcome } from '../tools/types.js';

/**
 * The outcome of a call the user edited before approving (e.g. in $EDITOR), with
 * a note telling the model what the user changed, so it re-reads before going on.
 */
export function userEditedOutcome(
  outcome: ToolOutcome,
  original: unknown,
  edited: Record<string, unknown>,
  note?: string,
): ToolOutcome {
  if (!outcome.ok) return outcome;
  const changed = Object.keys(edited).filter(
    (k) => JSON.stringify(edited[k]) !== JSON.stringify((original as Record<string, unknown>)?.[k]),
  );
  return {
    ok: true,
    data: {
      ...(outcome.data as object),
      user_modified: true,
      user_changes: `The user edited ${changed.join(', ') || 'the arguments'} before approving; the file now has the user's version${note ? ` (${note})` : ''}. Re-read it before further edits.`,
    },
  };
}
