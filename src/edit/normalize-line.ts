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
  // JavaScript's trim and \s take U+FEFF (a BOM, a zero-width no-break space) for a space; it is
  // not whitespace and shows nothing, so it is kept: a line differing by one never matches. The
  // native trims first; only a line they shortened is looked at again.
  switch (level) {
    case 'exact':
      return line;
    case 'trailing_whitespace': {
      const key = line.trimEnd();
      return key.length === line.length || line.indexOf(ZWNBSP, key.length) === -1
        ? key
        : line.replace(SPACE_END, '');
    }
    case 'indentation': {
      const key = line.trim();
      return key.length === line.length || !line.includes(ZWNBSP)
        ? key
        : line.replace(SPACE_START, '').replace(SPACE_END, '');
    }
    case 'unicode': {
      const folded = foldPunctuation(line);
      return folded.includes(ZWNBSP)
        ? folded.replace(SPACE_START, '').replace(SPACE_END, '').replace(SPACE_RUN, ' ')
        : folded.trim().replace(/\s+/g, ' ');
    }
  }
}

const ZWNBSP = '\uFEFF';
/** What trim and \s take for whitespace, but U+FEFF. */
const SPACE = '[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const SPACE_START = new RegExp(`^${SPACE}+`);
const SPACE_END = new RegExp(`${SPACE}+$`);
const SPACE_RUN = new RegExp(`${SPACE}+`, 'g');

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}
