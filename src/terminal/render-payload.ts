import type { ApprovalPayload } from '../approval/payloads.js';
import { renderDiffPayload } from './render-diff-payload.js';
import { renderGeneric, renderOther } from './render-other.js';
import { renderWrite } from './render-write.js';
import type { Rendered } from './rendered.js';
import type { Style } from './style.js';

/** Dispatches on payload.type; anything unknown falls back to its description and arguments. */
export function renderPayload(
  payload: ApprovalPayload,
  style: Style,
  width: number,
  args?: unknown,
): Rendered {
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
