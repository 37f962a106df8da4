import { locateIndexed } from './block-index.js';
import type { IndentStyle } from './indent-style.js';
import type { LineTable } from './line-table.js';
import { leadingWhitespace, type MatchLevel } from './normalize-line.js';

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
 * Finds every place where `needle` (whole lines) occurs in the file, trying each
 * level of the cascade in order and stopping at the first level with a match, so
 * ambiguity is counted at the level that matched. Blank lines match blank lines at
 * every level. O(file + needle) per level (see locateIndexed).
 */
export function locateBlock(
  file: LineTable | readonly string[],
  needle: readonly string[],
  options: { levels?: readonly MatchLevel[]; from?: number; to?: number } = {},
): BlockLocation | undefined {
  return locateIndexed(file, needle, options);
}

/**
 * The exact level of locateBlock, found by searching the text instead of walking
 * every line: the longest needle line is looked up with indexOf and each hit at a
 * line start is checked line by line. Same matches, in the same order, as
 * locateBlock's exact level from line `from`; undefined when every needle line is
 * blank (nothing distinctive to search for: use locateBlock).
 */
export function locateExact(table: LineTable, needle: readonly string[], from = 0): BlockMatch[] | undefined {
  let k = 0;
  for (let j = 1; j < needle.length; j++) if (needle[j]!.length > needle[k]!.length) k = j;
  const key = needle[k]!;
  if (key === '') return undefined;
  const { text } = table;
  const matches: BlockMatch[] = [];
  if (from + needle.length > table.count) return matches;
  for (let p = text.indexOf(key, table.offset(from + k)); p !== -1; p = text.indexOf(key, p + 1)) {
    if (p > 0 && text.charCodeAt(p - 1) !== 10) continue; // not at a line start
    const start = table.lineAt(p) - k;
    if (start + needle.length > table.count) break;
    if (needle.every((line, j) => table.lineEquals(start + j, line)))
      matches.push({ start, end: start + needle.length });
  }
  return matches;
}

function baseIndent(lines: readonly string[]): string {
  const first = lines.find((l) => l.trim() !== '');
  return first === undefined ? '' : leadingWhitespace(first);
}

const usesTabs = (lines: readonly string[]) =>
  lines.some((l) => l.trim() !== '' && leadingWhitespace(l).includes('\t'));
const width = (ws: string) => ws.replaceAll('\t', '').length + (ws.split('\t').length - 1);
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Width of one indentation step in a block (tabs or spaces), measured relative to its base; 0 if flat. */
function stepWidth(lines: readonly string[], base: string): number {
  let unit = 0;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const d = Math.abs(width(leadingWhitespace(l)) - width(base));
    if (d > 0) unit = gcd(unit, d);
  }
  return unit;
}

/**
 * File columns per request column when the request indents with tabs and the file
 * with spaces, or the other way round. Measured, best first, on the matched pairs
 * (their indentation steps, then their base indentations, which are the same
 * lines); else from the request's own steps and the file's style (tab = 1 column).
 */
function styleRatio(
  needle: readonly string[],
  window: readonly string[],
  replacement: readonly string[],
  fromBase: string,
  toBase: string,
  fileStyle: () => IndentStyle | undefined,
): number {
  const fromStep = stepWidth(needle, fromBase);
  const toStep = stepWidth(window, toBase);
  if (fromStep > 0 && toStep > 0) return toStep / fromStep;
  if (width(fromBase) > 0 && width(toBase) > 0) return width(toBase) / width(fromBase);
  const fromTabs = usesTabs([...needle, ...replacement]);
  const fromUnit = fromTabs ? 1 : stepWidth([...needle, ...replacement], fromBase) || 4;
  const style = fileStyle();
  const toUnit = !fromTabs ? 1 : style && !style.tabs ? style.unit : 4;
  return toUnit / fromUnit;
}

/**
 * File columns per request column when both indent with spaces: 1 (a shift) unless the
 * matched lines step by different widths (the request indents by 2 where the file
 * indents by 4) and that scale maps every matched indentation to the file's; then a
 * line nested deeper than any matched one keeps its depth in the file's steps. With one
 * level matched there is no step to compare (a new line's depth could be any number of
 * levels): a shift.
 */
function spaceRatio(
  needle: readonly string[],
  window: readonly string[],
  fromBase: string,
  toBase: string,
  seen: ReadonlyMap<string, string>,
): number {
  const fromStep = stepWidth(needle, fromBase);
  const toStep = stepWidth(window, toBase);
  if (fromStep === 0 || toStep === 0 || fromStep === toStep) return 1;
  const ratio = toStep / fromStep;
  for (const [from, to] of seen)
    if ((width(from) - width(fromBase)) * ratio + width(toBase) !== width(to)) return 1;
  return ratio;
}

/**
 * Re-indents replacement lines written against `needle` so they sit where the
 * matched `window` of the file sits. Same style (spaces/spaces, tabs/tabs): shift
 * by the column difference of the two bases. Different styles: convert through
 * indentation levels (a tab per level ⇄ N spaces per level, N measured).
 */
export function reindent(
  replacement: readonly string[],
  needle: readonly string[],
  window: readonly string[],
  /** The file's style, for what the window cannot tell (no indented line, or one level only). */
  fileStyle: () => IndentStyle | undefined = () => undefined,
): string[] {
  const fromBase = baseIndent(needle);
  const toBase = baseIndent(window);
  const fromTabs = usesTabs([...needle, ...replacement]);
  const windowIndented = window.some((l) => l.trim() !== '' && leadingWhitespace(l) !== '');
  const style = windowIndented ? undefined : fileStyle();
  // A file with no indented line at all shows no style: the request's own is the best guess.
  const toTabs = windowIndented ? usesTabs(window) : (style?.tabs ?? fromTabs);
  const unitChar = toTabs ? '\t' : ' ';
  // Needle and window are matched line by line: an indentation the needle uses maps to the window's exactly.
  const seen = new Map<string, string>();
  needle.forEach((l, i) => {
    const w = window[i];
    if (l.trim() !== '' && w !== undefined && !seen.has(leadingWhitespace(l)))
      seen.set(leadingWhitespace(l), leadingWhitespace(w));
  });
  const ratio =
    fromTabs !== toTabs
      ? styleRatio(needle, window, replacement, fromBase, toBase, fileStyle)
      : toTabs
        ? 1
        : spaceRatio(needle, window, fromBase, toBase, seen);
  const order = orderOf(seen);
  return replacement.map((line) => {
    if (line.trim() === '') return line;
    const ws = leadingWhitespace(line);
    const body = line.slice(ws.length);
    const known = seen.get(ws);
    if (known !== undefined) return known + body;
    const guess = Math.round((width(ws) - width(fromBase)) * ratio) + width(toBase);
    const columns = order ? keptInOrder(width(ws), guess, order, ratio) : guess;
    return unitChar.repeat(Math.max(0, columns)) + body;
  });
}

/** Matched indentations as (request width, file width), by request width; undefined if the file's do not rise with them. */
function orderOf(seen: ReadonlyMap<string, string>): Array<[number, number]> | undefined {
  const pairs = [...seen].map(([from, to]): [number, number] => [width(from), width(to)]);
  pairs.sort((a, b) => a[0] - b[0]);
  for (let k = 1; k < pairs.length; k++) if (pairs[k]![1] <= pairs[k - 1]![1]) return undefined;
  return pairs;
}

/**
 * A new line's file width that keeps its place among the matched indentations: deeper
 * than each one the request indents it deeper than, shallower than each one it indents
 * it shallower than (a line nested under another stays nested, whatever steps the file
 * uses). The scaled guess when it already does; else one step from its nearer neighbour.
 */
function keptInOrder(
  w: number,
  guess: number,
  order: ReadonlyArray<[number, number]>,
  ratio: number,
): number {
  let below: [number, number] | undefined;
  let above: [number, number] | undefined;
  for (const pair of order) {
    if (pair[0] < w) below = pair;
    else if (pair[0] > w) {
      above = pair;
      break;
    }
  }
  const floor = below ? below[1] + 1 : 0;
  const ceiling = above ? above[1] - 1 : Number.POSITIVE_INFINITY;
  if (guess >= floor && guess <= ceiling) return guess;
  if (floor > ceiling) return guess; // no column between them: left as scaled
  if (guess < floor)
    return below ? Math.min(ceiling, below[1] + Math.max(1, Math.round((w - below[0]) * ratio))) : floor;
  return Math.max(floor, above![1] - Math.max(1, Math.round((above![0] - w) * ratio)));
}
