import type { ApprovalRequest } from '../contract/approval-types.js';
import { renderPayload } from '../terminal/render-payload.js';
import { createStyle } from '../terminal/style.js';

export interface PayloadTextOptions {
  /** Body lines shown before "… N more lines" (default 80). */
  maxLines?: number;
  /** Columns the body is laid out in (default 120). */
  width?: number;
}

/**
 * Backslash-escapes what makes inline Markdown or HTML (emphasis, code, links,
 * images, tags, entities, tables, strikethrough), so a file name such as
 * `<img src=x>` or `**x**` is shown as written; paths keep their slashes and dots.
 * GFM autolinks are broken too (`www.`, `scheme://`, `mailto:`/`xmpp:`, bare
 * emails): an escaped `.`, `:` or `@` renders as itself but starts no link.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_[\]<>!|~&@]/g, (c) => `\\${c}`)
    .replace(/(^|[^a-z0-9])(www)\./gi, '$1$2\\.')
    .replace(/([a-z][a-z0-9+.-]*):(?=\/\/)/gi, '$1\\:')
    .replace(/\b(mailto|xmpp):/gi, '$1\\:');
}

/** A code fence longer than any run of backticks in `text` (so the text cannot close it). */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The approval request as text for an MCP client to show, built to survive a
 * host that renders it as Markdown: the title (with file names) escaped on the
 * first line, then warnings and body inside one code fence longer than any
 * backtick run in them, so file content such as `<!-- … -->`, `<details>` or
 * `**…**` is shown as text, never interpreted, and each diff line stays a line.
 * The body is the terminal renderer's (line numbers, the long-line window that
 * keeps the first change on screen), without colour, bounded to `maxLines`
 * lines with a count of what was left out.
 */
export function payloadText(request: ApprovalRequest, options: PayloadTextOptions = {}): string {
  const maxLines = Math.max(1, options.maxLines ?? 80);
  const rendered = renderPayload(request.payload, createStyle(false), options.width ?? 120, request.args);
  const body = rendered.body;
  const shown = Math.min(body.count, maxLines);
  const lines = [...rendered.warnings];
  if (shown > 0 && lines.length > 0) lines.push('');
  for (let i = 0; i < shown; i++) lines.push(body.line(i).trimEnd());
  const block = lines.join('\n');
  const fence = fenceFor(block);
  const text = `${escapeMarkdown(rendered.title)}\n\n${fence}text\n${block}\n${fence}`;
  if (body.count === shown) return text;
  const more = body.count - shown;
  return `${text}\n… ${more} more line${more === 1 ? '' : 's'} (not shown)`;
}
