import type { EditPayload, LinesEditPayload, PatchPayload } from '../approval/payloads.js';
import { diffLineSource, diffStats } from './diff-view.js';
import type { Rendered } from './rendered.js';
import { sanitizeLine } from './sanitize.js';
import type { Style } from './style.js';

/** +N −M counted from the same diff model the rows are drawn from (never from the payload's own counts). */
export const diffStatsLabel = (unifiedDiff: string, style: Style) => {
  const { added, removed } = diffStats(unifiedDiff);
  return `${style.green(`+${added}`)} ${style.red(`−${removed}`)}`;
};

/** edit, patch and lines payloads all carry a unified diff: same view, different headers. */
export function renderDiffPayload(
  payload: EditPayload | PatchPayload | LinesEditPayload,
  style: Style,
  width: number,
): Rendered {
  const path = sanitizeLine(payload.path);
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
  if (payload.diffCoarse)
    warnings.push('The diff was too expensive to compute exactly; it is shown as one block.');
  return {
    title: `${title}  ${diffStatsLabel(payload.unifiedDiff, style)}`,
    paths: [path],
    warnings,
    body: diffLineSource(payload.unifiedDiff, style, width),
  };
}
