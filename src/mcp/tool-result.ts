import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutcome } from '../tools/types.js';

/**
 * A tool outcome as an MCP tool result: text the model reads plus the same data
 * as `structuredContent`. A failure is an `isError` result carrying the stable
 * code, the message and suggestions, never a protocol error.
 */
export function toCallToolResult(name: string, outcome: ToolOutcome): CallToolResult {
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
  return {
    content: [{ type: 'text', text: resultText(name, data) }],
    structuredContent: { ...data },
  };
}

/** read_file's content is given as plain text after its metadata; everything else as JSON. */
function resultText(name: string, data: Record<string, unknown>): string {
  if (name === 'read_file' && typeof data.content === 'string') {
    const { content, ...meta } = data;
    return `${JSON.stringify(meta)}\n${content}`;
  }
  return JSON.stringify(data);
}
