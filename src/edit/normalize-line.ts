import { isTrimmed } from './line-hash.js';
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

/**
 * Whether lineKey(text.slice(from, to), level) === key, found without slicing the line
 * at the levels that only strip its end: the line is the key followed by whitespace
 * (the run lineKey strips). Block searches check a line per request line this way.
 */
export function hasKeyAt(text: string, from: number, to: number, key: string, level: MatchLevel): boolean {
  if (level === 'exact') return to - from === key.length && text.startsWith(key, from);
  if (level !== 'trailing_whitespace') return lineKey(text.slice(from, to), level) === key;
  if (to - from < key.length || !text.startsWith(key, from)) return false;
  if (key.length > 0 && isSpace(key.charCodeAt(key.length - 1))) return false;
  for (let i = from + key.length; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** One character of SPACE (below): whitespace as trim takes it, but U+FEFF. */
export const isSpace = (c: number): boolean => c !== 0xfeff && isTrimmed(c);

const ZWNBSP = '\uFEFF';
/** What trim and \s take for whitespace, but U+FEFF. */
const SPACE = '[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const SPACE_START = new RegExp(`^${SPACE}+`);
const SPACE_END = new RegExp(`${SPACE}+$`);
const SPACE_RUN = new RegExp(`${SPACE}+`, 'g');

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}
