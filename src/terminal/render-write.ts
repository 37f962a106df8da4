import type { WritePayload } from '../approval/payloads.js';
import { arraySource, diffLineSource } from './diff-view.js';
import type { Rendered } from './rendered.js';
import { fitWidth, sanitizeLine } from './sanitize.js';
import type { Style } from './style.js';

function size(bytes: number): string {
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** New file: numbered content. Overwrite: the diff against the existing file, plus the overwrite warning. */
export function renderWrite(payload: WritePayload, style: Style, width: number): Rendered {
  const path = sanitizeLine(payload.path);
  const lines = `${payload.contentLines} line${payload.contentLines === 1 ? '' : 's'}, ${size(payload.contentBytes)}`;
  if (payload.fileExists) {
    const warnings = [
      `⚠ This will overwrite an existing file (was ${payload.existingLines} lines, now ${payload.contentLines} lines).`,
    ];
    if (payload.diffCoarse)
      warnings.push('The diff was too expensive to compute exactly; it is shown as one block.');
    const body = payload.unifiedDiff
      ? diffLineSource(payload.unifiedDiff, style, width)
      : arraySource(numbered(payload.content, style, width));
    const stat =
      payload.added !== undefined
        ? `  ${style.green(`+${payload.added}`)} ${style.red(`−${payload.removed ?? 0}`)}`
        : '';
    return { title: `Write: ${path} (${lines}, overwrite)${stat}`, warnings, body };
  }
  return {
    title: `Write: ${path} (${lines}, new file)`,
    warnings: [],
    body: arraySource(numbered(payload.content, style, width)),
  };
}

/** Content with a line-number gutter (all of it: the caller decides how much to show). */
export function numbered(content: string, style: Style, width: number): string[] {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  const w = String(lines.length).length;
  return lines.map(
    (l, i) =>
      `${style.dim(`${String(i + 1).padStart(w)} │`)} ${fitWidth(sanitizeLine(l), Math.max(10, width - w - 3))}`,
  );
}
