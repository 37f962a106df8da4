import type { ToolOutcome } from '../src/contract/tool-outcome.js';

/** Compact text for a model: read_file's content as text, errors as "error <code>: message". */
export function outcomeText(name: string, outcome: ToolOutcome): string {
  if (!outcome.ok) {
    const e = outcome.error;
    const hints = e.suggestions?.length ? `\nSuggestions: ${e.suggestions.join('; ')}` : '';
    const details = e.details ? `\nDetails: ${JSON.stringify(e.details)}` : '';
    return `error ${e.code}: ${e.message}${hints}${details}`;
  }
  if (name === 'read_file') {
    const { content, ...meta } = outcome.data as { content: string };
    return `${JSON.stringify(meta)}\n${content}`;
  }
  // Your own tools may answer in text already; quoting it again would only add noise.
  return typeof outcome.data === 'string' ? outcome.data : JSON.stringify(outcome.data);
}
