import { COARSE_DIFF_WARNING } from '../approval/diff-heading.js';
import type { WritePayload } from '../contract/payloads.js';
import { displayWidth } from '../text/display-width.js';
import { allLines, diffLineSource, type LineSource } from './diff-view.js';
import { diffStatsLabel } from './render-diff-payload.js';
import type { Rendered } from './rendered.js';
import { fitWidth, sanitizeLine, shiftLeft } from './sanitize.js';
import type { Style } from './style.js';

function size(bytes: number): string {
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `1 line`, `12,345 lines`. */
export const linesOf = (n: number) => `${n.toLocaleString('en')} line${n === 1 ? '' : 's'}`;

/** The overwrite warning: `was 42 lines, now 150 lines`. */
export function overwriteWarning(existingLines: number | null, contentLines: number): string {
  const was = existingLines === null ? '' : `was ${linesOf(existingLines)}, `;
  return `⚠ This will overwrite an existing file (${was}now ${linesOf(contentLines)}).`;
}

/** New file: numbered content. Overwrite: the diff against the existing file, plus the overwrite warning. */
export function renderWrite(payload: WritePayload, style: Style, width: number): Rendered {
  const path = sanitizeLine(payload.path);
  const lines = `${linesOf(payload.contentLines)}, ${size(payload.contentBytes)}`;
  if (payload.fileExists) {
    const warnings = [overwriteWarning(payload.existingLines, payload.contentLines)];
    if (payload.diffCoarse) warnings.push(COARSE_DIFF_WARNING);
    const body = payload.unifiedDiff
      ? diffLineSource(payload.unifiedDiff, style, width)
      : numberedSource(payload.content, style, width);
    const stat = payload.unifiedDiff ? `  ${diffStatsLabel(payload.unifiedDiff, style)}` : '';
    return { title: `Write: ${path} (${lines}, overwrite)${stat}`, paths: [path], warnings, body };
  }
  return {
    title: `Write: ${path} (${lines}, new file)`,
    paths: [path],
    warnings: [],
    body: numberedSource(payload.content, style, width),
  };
}

/** Content with a line-number gutter, each line sanitised and cut only when shown. */
export function numberedSource(content: string, style: Style, width: number): LineSource {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  const w = String(lines.length).length;
  const textWidth = Math.max(10, width - w - 2 - displayWidth('│'));
  return {
    count: lines.length,
    text: (i) => sanitizeLine(lines[i] ?? ''),
    where: (i) => `line ${(i + 1).toLocaleString('en')}`,
    line: (i, shift = 0) =>
      `${style.dim(`${String(i + 1).padStart(w)} │`)} ${fitWidth(shiftLeft(sanitizeLine(lines[i] ?? ''), shift), textWidth)}`,
  };
}

/** All of `numberedSource` at once (short previews). */
export function numbered(content: string, style: Style, width: number): string[] {
  return allLines(numberedSource(content, style, width));
}
