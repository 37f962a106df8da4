import type { EditPayload, LinesEditPayload, PatchPayload } from '../contract/payloads.js';

export const COARSE_DIFF_WARNING = 'The diff was too expensive to compute exactly; it is shown as one block.';

/**
 * The title and warnings of a diff payload (edit, patch, lines), in words every
 * approval UI shows alike — the terminal and the browser. `path` is the path as
 * the UI displays it (already made visible).
 */
export function diffHeading(
  payload: EditPayload | PatchPayload | LinesEditPayload,
  path: string,
): { title: string; warnings: string[] } {
  const warnings: string[] = [];
  let title: string;
  if (payload.type === 'edit') {
    const where = payload.replaceAll ? `${payload.matchCount} places` : `line ${payload.matchLine}`;
    title = `Edit: ${path} (${where})`;
    if (payload.matchLevel !== 'exact')
      warnings.push(`Matched ignoring ${payload.matchLevel.replace('_', ' ')}: check the result below.`);
  } else if (payload.type === 'patch') {
    title = `${payload.fileExists ? 'Patch' : 'Create'}: ${path} (${payload.hunks} hunk${payload.hunks === 1 ? '' : 's'})`;
    if (payload.relocated)
      warnings.push('Hunks relocated: the @@ line numbers were off; placed by their context.');
  } else {
    title = `Edit lines: ${path} (${payload.operations} operation${payload.operations === 1 ? '' : 's'})`;
  }
  if (payload.diffCoarse) warnings.push(COARSE_DIFF_WARNING);
  return { title, warnings };
}
