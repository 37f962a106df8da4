import { sanitizeLine } from '../terminal/sanitize.js';

/**
 * A line as text that cannot fool the reader: invisible characters become
 * visible tokens (⟨U+202E⟩, ␛ …), look-alike letters are marked ⟦…:Script⟧, tabs are
 * expanded. In a changed line (`whitespace`) a tab is drawn `→` and trailing
 * spaces `·`, as in the terminal, so a whitespace-only change is visible;
 * `'tabs'` marks tabs only (a piece of a line that is not its end). React
 * renders the result as text, never as markup.
 */
export function visibleText(line: string, whitespace: boolean | 'tabs' = false): string {
  return sanitizeLine(line, 4, whitespace);
}
