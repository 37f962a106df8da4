import { createTwoFilesPatch } from 'diff';
import type { ToolOutcome } from '../contract/tool-outcome.js';

/** At most this much of the user's diff goes back to the model (a huge rewrite is summarised). */
const MAX_DIFF_CHARS = 4000;

/** The argument names whose values the user changed. */
function changedKeys(original: unknown, edited: Record<string, unknown>): string[] {
  const before = (original ?? {}) as Record<string, unknown>;
  return Object.keys(edited).filter((k) => JSON.stringify(edited[k]) !== JSON.stringify(before[k]));
}

/** A unified diff of one argument, your version → the user's, cut with a marker when long. */
function fieldDiff(key: string, proposed: string, edited: string): string {
  const diff = createTwoFilesPatch(`${key} (yours)`, `${key} (user's)`, proposed, edited, '', '', {
    context: 2,
  })
    .split('\n')
    .filter((l) => !l.startsWith('====='))
    .join('\n');
  if (diff.length <= MAX_DIFF_CHARS) return diff;
  const cut = diff.slice(0, MAX_DIFF_CHARS);
  return `${cut.slice(0, cut.lastIndexOf('\n'))}\n… (${diff.length - cut.lastIndexOf('\n')} more characters of the diff not shown)`;
}

/**
 * What to tell the model when the user edited its proposal before approving
 * (like gemini-cli's `modified_by_user` or Cline's "the user made the following
 * updates to your content"): which arguments changed and how.
 */
function describeUserChanges(original: unknown, edited: Record<string, unknown>, note?: string): string {
  const keys = changedKeys(original, edited);
  const before = (original ?? {}) as Record<string, unknown>;
  const parts = [
    `The user edited ${keys.join(', ') || 'the arguments'} before approving, so what was applied is the user's version, not yours${note ? ` (the user's note: ${note})` : ''}.`,
  ];
  for (const k of keys) {
    const [a, b] = [before[k], edited[k]];
    if (typeof a === 'string' && typeof b === 'string') parts.push(`Changes to ${k}:\n${fieldDiff(k, a, b)}`);
    else parts.push(`${k} is now ${JSON.stringify(b)}.`);
  }
  parts.push('Re-read the file before further edits.');
  return parts.join('\n');
}

/** The outcome of a call run with the user's edited arguments, telling the model what the user changed. */
export function userEditedOutcome(
  outcome: ToolOutcome,
  original: unknown,
  edited: Record<string, unknown>,
  note?: string,
): ToolOutcome {
  if (!outcome.ok) return outcome;
  return {
    ok: true,
    data: {
      ...(outcome.data as object),
      user_modified: true,
      user_changes: describeUserChanges(original, edited, note),
    },
  };
}
