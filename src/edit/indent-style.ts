import { leadingWhitespace } from './normalize-line.js';

/** How a file indents: with tabs (one per level) or with `unit` spaces per level. */
export interface IndentStyle {
  tabs: boolean;
  unit: number;
}

/**
 * The indentation style of some lines, the way editors guess it: tabs when more
 * lines start with a tab than with spaces; otherwise the unit is the most common
 * increase of indentation from one non-blank line to the next. Undefined when no
 * line is indented (nothing to go by).
 */
export function detectIndentStyle(lines: Iterable<string>): IndentStyle | undefined {
  let tabbed = 0;
  let spaced = 0;
  let previous = 0;
  const steps = new Map<number, number>();
  for (const line of lines) {
    if (line.trim() === '') continue;
    const ws = leadingWhitespace(line);
    if (ws.startsWith('\t')) tabbed++;
    else if (ws.length > 0) spaced++;
    const width = ws.startsWith('\t') ? previous : ws.length;
    if (!ws.startsWith('\t') && width > previous)
      steps.set(width - previous, (steps.get(width - previous) ?? 0) + 1);
    previous = width;
  }
  if (tabbed === 0 && spaced === 0) return undefined;
  if (tabbed > spaced) return { tabs: true, unit: 1 };
  let unit = 0;
  let best = 0;
  for (const [step, n] of steps) if (n > best || (n === best && step < unit)) [unit, best] = [step, n];
  return { tabs: false, unit: unit || 4 };
}
