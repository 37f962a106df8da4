import type { ToolErrorInfo } from '../contract/tool-outcome.js';
import type { FileOutcome } from './apply-change-set.js';

const quote = (s: string) => JSON.stringify(s.length > 500 ? `${s.slice(0, 500)}…` : s);

function line(f: FileOutcome): string {
  const what = f.movedFrom ? `${f.path} (moved from ${f.movedFrom})` : `${f.path} (${f.status})`;
  const note = f.note ? ` Note: ${quote(f.note)}.` : '';
  switch (f.outcome) {
    case 'applied':
      return `- ${what}: applied as staged.${note}`;
    case 'edited':
      return `- ${what}: the person wrote their own version; read it again before changing it.${note}`;
    case 'rejected':
      return `- ${what}: rejected, the file is unchanged.${note}`;
    case 'partly_applied': {
      const h = f.hunks!;
      const where = h.rejectedAt
        .map((r) => `line ${r.line}${r.note ? ` (${quote(r.note)})` : ''}`)
        .join(', ');
      return `- ${what}: partly applied: ${h.accepted} change(s) accepted, ${h.rejected} rejected at ${where}; read it again before changing it.${note}`;
    }
  }
}

/**
 * What the model is told after a review: per file, applied / partly applied /
 * edited / rejected with the person's notes, so it continues from the true state.
 */
export function summarize(files: readonly FileOutcome[], note?: string, error?: ToolErrorInfo): string {
  const count = (k: FileOutcome['outcome']) => files.filter((f) => f.outcome === k).length;
  const head = error
    ? `Nothing was applied: ${error.message}`
    : files.length === 0
      ? 'There were no staged changes to review.'
      : `Review of ${files.length} changed file(s): ${count('applied')} applied, ${count('partly_applied')} partly applied, ${count('edited')} edited by the person, ${count('rejected')} rejected.`;
  const lines = error ? [] : files.map(line);
  return [head, ...lines, ...(note ? [`Reviewer's note: ${quote(note)}`] : [])].join('\n');
}
