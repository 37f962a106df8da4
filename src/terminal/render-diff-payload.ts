import { diffHeading } from '../approval/diff-heading.js';
import type { EditPayload, LinesEditPayload, PatchPayload } from '../contract/payloads.js';
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
  const { title, warnings } = diffHeading(payload, path);
  return {
    title: `${title}  ${diffStatsLabel(payload.unifiedDiff, style)}`,
    paths: [path],
    warnings,
    body: diffLineSource(payload.unifiedDiff, style, width),
  };
}
