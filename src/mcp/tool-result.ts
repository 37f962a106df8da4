import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';

/**
 * A tool outcome as an MCP tool result: text the model reads plus the same data
 * as `structuredContent`. A failure is an `isError` result carrying the stable
 * code, the message and suggestions, never a protocol error. A note given
 * with the approval is appended (and set as `user_note`).
 */
export function toCallToolResult(name: string, outcome: ToolOutcome, approvalNote?: string): CallToolResult {
  if (!outcome.ok) {
    const e = outcome.error;
    const lines = [`error ${e.code}: ${e.message}`];
    if (e.suggestions?.length) lines.push(`Suggestions: ${e.suggestions.join('; ')}`);
    if (e.details) lines.push(`Details: ${JSON.stringify(e.details)}`);
    return {
      isError: true,
      content: [{ type: 'text', text: lines.join('\n') }],
      structuredContent: { error: { ...e } },
    };
  }
  const data = outcome.data as Record<string, unknown>;
  // A note the person gave with their approval is for the model too.
  const note = approvalNote ? `\nThe user approved this call and noted: "${approvalNote}"` : '';
  if (name === 'read_media_file' && typeof data.data === 'string') return mediaResult(data);
  return {
    content: [{ type: 'text', text: `${resultText(name, data)}${note}` }],
    structuredContent: { ...data, ...(approvalNote ? { user_note: approvalNote } : {}) },
  };
}

/** An image or audio file as MCP media content; the bytes are sent once (not again in structuredContent). */
function mediaResult(data: Record<string, unknown>): CallToolResult {
  const { data: base64, ...meta } = data;
  const mimeType = String(meta.mime_type);
  const type = meta.kind === 'audio' ? 'audio' : 'image';
  return {
    content: [
      { type, data: base64 as string, mimeType },
      { type: 'text', text: JSON.stringify(meta) },
    ],
    structuredContent: meta,
  };
}

/**
 * read_file's content is given as plain text after its metadata; a dry run as
 * its description and diff (as the reference server shows an edit preview);
 * everything else as JSON.
 */
function resultText(name: string, data: Record<string, unknown>): string {
  if (data.dry_run === true) {
    const head = `Dry run (nothing was changed): ${String(data.description)}`;
    return typeof data.diff === 'string'
      ? `${head}\n${data.diff}`
      : `${head}\n${JSON.stringify(data.payload ?? {})}`;
  }
  if (name === 'read_file' && typeof data.content === 'string') {
    const { content, ...meta } = data;
    return `${JSON.stringify(meta)}\n${content}`;
  }
  return JSON.stringify(data);
}
