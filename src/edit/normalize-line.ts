import { TYPO_CLASSES } from './typography.js';

/** The levels of the matching cascade, from strictest to most lenient. */
export const MATCH_LEVELS = ['exact', 'trailing_whitespace', 'indentation', 'unicode'] as const;
export type MatchLevel = (typeof MATCH_LEVELS)[number];

/** Folds typographic punctuation to ASCII (models often "prettify" quotes and dashes). */
export function foldPunctuation(line: string): string {
  let out = line;
  for (const c of TYPO_CLASSES) out = out.replace(c.pattern, c.ascii);
  return out;
}

/**
 * The comparison key of a line at a level. Indentation is handled separately
 * (relative indentation must still agree), so here it is only stripped.
 */
export function lineKey(line: string, level: MatchLevel): string {
  switch (level) {
    case 'exact':
      return line;
    case 'trailing_whitespace':
      return line.trimEnd();
    case 'indentation':
      return line.trim();
    case 'unicode':
      return foldPunctuation(line).trim().replace(/\s+/g, ' ');
  }
}

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}
