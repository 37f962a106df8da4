import { leadingWhitespace, lineKey, MATCH_LEVELS, type MatchLevel } from './normalize-line.js';

export interface BlockMatch {
  /** 0-based index of the first matched file line. */
  start: number;
  /** 0-based index one past the last matched line. */
  end: number;
}

export interface BlockLocation {
  level: MatchLevel;
  matches: BlockMatch[];
}

/**
 * Finds every place where `needle` (whole lines) occurs in `fileLines`, trying
 * each level of the cascade in order and stopping at the first level with a
 * match, so ambiguity is counted at the level that matched. Blank lines match
 * blank lines at every level. O(n·m) worst case, but each window is rejected at
 * its first differing line, so it is linear in practice.
 */
export function locateBlock(
  fileLines: readonly string[],
  needle: readonly string[],
  options: { levels?: readonly MatchLevel[]; from?: number; to?: number } = {},
): BlockLocation | undefined {
  if (needle.length === 0) return undefined;
  const from = options.from ?? 0;
  const to = options.to ?? fileLines.length;
  for (const level of options.levels ?? MATCH_LEVELS) {
    const keys = needle.map((l) => lineKey(l, level));
    const fileKey = (i: number) => lineKey(fileLines[i]!, level);
    const matches: BlockMatch[] = [];
    for (let i = from; i + keys.length <= to; i++) {
      let j = 0;
      while (j < keys.length && fileKey(i + j) === keys[j]) j++;
      if (j === keys.length) matches.push({ start: i, end: i + keys.length });
    }
    if (matches.length > 0) return { level, matches };
  }
  return undefined;
}

/** Indentation unit of a block: a tab, or the smallest positive run of spaces. */
function indentUnit(lines: readonly string[]): string {
  let min = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const ws = leadingWhitespace(line);
    if (ws.includes('\t')) return '\t';
    if (ws.length > 0) min = Math.min(min, ws.length);
  }
  return Number.isFinite(min) ? ' '.repeat(min) : '  ';
}

function baseIndent(lines: readonly string[]): string {
  const first = lines.find((l) => l.trim() !== '');
  return first === undefined ? '' : leadingWhitespace(first);
}

/** Converts leading whitespace written in one unit (e.g. 2 spaces) to another (e.g. a tab). */
function convertIndent(ws: string, from: string, to: string): string {
  if (from === to || ws === '') return ws;
  let levels = 0;
  let rest = ws;
  while (rest.length > 0) {
    if (rest.startsWith(from)) {
      levels++;
      rest = rest.slice(from.length);
    } else if (rest.startsWith('\t')) {
      levels++;
      rest = rest.slice(1);
    } else {
      break;
    }
  }
  return to.repeat(levels) + rest;
}

/**
 * Re-indents replacement lines written against `needle` so they sit where the
 * matched `window` of the file sits: the needle's base indentation becomes the
 * window's, and indentation units are converted (spaces ⇄ tabs) to the file's.
 */
export function reindent(
  replacement: readonly string[],
  needle: readonly string[],
  window: readonly string[],
): string[] {
  const fromBase = baseIndent(needle);
  const toBase = baseIndent(window);
  const fromUnit = indentUnit([...needle, ...replacement]);
  const toUnit = indentUnit(window);
  return replacement.map((line) => {
    if (line.trim() === '') return line;
    const ws = leadingWhitespace(line);
    const body = line.slice(ws.length);
    if (ws.startsWith(fromBase))
      return toBase + convertIndent(ws.slice(fromBase.length), fromUnit, toUnit) + body;
    return convertIndent(ws, fromUnit, toUnit) + body;
  });
}
