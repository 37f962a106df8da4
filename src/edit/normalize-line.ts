/** The levels of the matching cascade, from strictest to most lenient. */
export const MATCH_LEVELS = ['exact', 'trailing_whitespace', 'indentation', 'unicode'] as const;
export type MatchLevel = (typeof MATCH_LEVELS)[number];

const PUNCTUATION: Array<[RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u00B4]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' '],
];

/** Folds typographic punctuation to ASCII (models often "prettify" quotes and dashes). */
export function foldPunctuation(line: string): string {
  let out = line;
  for (const [pattern, ascii] of PUNCTUATION) out = out.replace(pattern, ascii);
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
