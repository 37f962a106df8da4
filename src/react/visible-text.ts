import { sanitizeLine } from '../terminal/sanitize.js';

/**
 * A line as text that cannot fool the reader: control characters, bidi
 * overrides and zero-width characters become visible tokens (⟨U+202E⟩, ␛ …),
 * tabs are expanded. React renders the result as text, never as markup.
 */
export function visibleText(line: string): string {
  return sanitizeLine(line);
}
