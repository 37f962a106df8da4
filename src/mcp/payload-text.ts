import type { ApprovalRequest } from '../approval/types.js';
import { renderPayload } from '../terminal/render-payload.js';
import { createStyle } from '../terminal/style.js';

export interface PayloadTextOptions {
  /** Body lines shown before "… N more lines" (default 80). */
  maxLines?: number;
  /** Columns the body is laid out in (default 120). */
  width?: number;
}

/**
 * The approval request as plain text for an MCP client to show: the same
 * renderer as the terminal UI (what, where, the diff with line numbers), without
 * colour, bounded to `maxLines` body lines with a count of what was left out.
 */
export function payloadText(request: ApprovalRequest, options: PayloadTextOptions = {}): string {
  const maxLines = Math.max(1, options.maxLines ?? 80);
  const rendered = renderPayload(request.payload, createStyle(false), options.width ?? 120, request.args);
  const body = rendered.body;
  const shown = Math.min(body.count, maxLines);
  const lines = [rendered.title, ...rendered.warnings];
  if (shown > 0) lines.push('');
  for (let i = 0; i < shown; i++) lines.push(body.line(i).trimEnd());
  if (body.count > shown) {
    const more = body.count - shown;
    lines.push(`… ${more} more line${more === 1 ? '' : 's'} (not shown)`);
  }
  return lines.join('\n');
}
