import type { ApprovalPayload } from '../contract/payloads.js';
import { linkNotes, lookAlikeNotes } from './payload-notes.js';
import { renderDiffPayload } from './render-diff-payload.js';
import { renderGeneric, renderOther } from './render-other.js';
import { renderWrite } from './render-write.js';
import type { Rendered } from './rendered.js';
import type { Style } from './style.js';

/**
 * Renders a payload by type, with the notes every type shares in front of its
 * own warnings: the links it acts through and the look-alike letters in its
 * paths and changed text.
 */
export function renderPayload(
  payload: ApprovalPayload,
  style: Style,
  width: number,
  args?: unknown,
): Rendered {
  const r = renderByType(payload, style, width, args);
  const known = typeof payload === 'object' && payload !== null && 'path' in payload && 'type' in payload;
  if (!known) return r;
  return { ...r, warnings: [...linkNotes(payload), ...r.warnings, ...lookAlikeNotes(payload)] };
}

/** Dispatches on payload.type; anything unknown falls back to its description and arguments. */
function renderByType(payload: ApprovalPayload, style: Style, width: number, args?: unknown): Rendered {
  switch (payload.type) {
    case 'edit':
    case 'patch':
    case 'lines':
      return renderDiffPayload(payload, style, width);
    case 'write':
      return renderWrite(payload, style, width);
    case 'read':
    case 'delete':
    case 'move':
    case 'copy':
    case 'list':
    case 'generic':
      return renderOther(payload, style, width);
    default:
      return renderGeneric(
        { description: (payload as { description?: string }).description ?? 'Unknown request', args },
        width,
      );
  }
}
