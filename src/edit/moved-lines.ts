/**
 * For an added line of a rebuilt replacement: the old line it repeats (a move or a
 * copy), when that names one file text. An old line is a source when the request's
 * old line is the same text, or (for an old line the model copied inexactly) the same
 * under the match level's key. A text or key whose old lines have different file texts
 * is ambiguous: not a move.
 */
export type MovedLineFinder = (line: string, key: string) => number | undefined;

/** Lookups up to this many scan the old lines; more build maps of them once. */
const SCANNED_LOOKUPS = 4;

/**
 * The finder for `lookups` added lines: a scan per line when they are few (the usual
 * edit changes a line or two of a long block, and maps of every old line cost more
 * than the scans), else maps, so a long request stays linear. Both answer the same.
 */
export function movedLineFinder(
  needle: readonly string[],
  window: readonly string[],
  slipped: readonly boolean[],
  oldKey: (i: number) => string,
  lookups: number,
): MovedLineFinder {
  if (lookups <= SCANNED_LOOKUPS) return (line, key) => scanMoved(needle, window, slipped, oldKey, line, key);
  const maps = new MovedLines(needle, window, slipped, oldKey);
  return (line, key) => maps.find(line, key);
}

/** What MovedLines.find answers, found by one pass over the old lines. */
export function scanMoved(
  needle: readonly string[],
  window: readonly string[],
  slipped: readonly boolean[],
  oldKey: (i: number) => string,
  line: string,
  key: string,
): number | undefined {
  let a: number | undefined;
  let b: number | undefined;
  for (let i = 0; i < needle.length; i++) {
    if (needle[i] === line) a = a === undefined ? i : a !== -1 && window[a] !== window[i] ? -1 : a;
    if (slipped[i] && oldKey(i) === key)
      b = b === undefined ? i : b !== -1 && window[b] !== window[i] ? -1 : b;
  }
  return combined(window, a, b);
}

/** The old lines found by text (`a`) and by key (`b`): one file text, or none (-1: ambiguous). */
function combined(
  window: readonly string[],
  a: number | undefined,
  b: number | undefined,
): number | undefined {
  if (a === -1 || b === -1) return undefined;
  if (a !== undefined && b !== undefined && window[a] !== window[b]) return undefined;
  return a ?? b;
}

/** The old lines by text and by key, in maps: each lookup is two map reads. */
export class MovedLines {
  private readonly exact = new Map<string, number>();
  private readonly normalised = new Map<string, number>();
  constructor(
    needle: readonly string[],
    private readonly window: readonly string[],
    slipped: readonly boolean[],
    oldKey: (i: number) => string,
  ) {
    needle.forEach((l, i) => {
      this.add(this.exact, l, i);
      if (slipped[i]) this.add(this.normalised, oldKey(i), i);
    });
  }
  /** -1 marks a key whose old lines have different file texts: ambiguous, not a move. */
  private add(map: Map<string, number>, key: string, i: number): void {
    const seen = map.get(key);
    if (seen === undefined) map.set(key, i);
    else if (seen !== -1 && this.window[seen] !== this.window[i]) map.set(key, -1);
  }
  find(line: string, key: string): number | undefined {
    return combined(this.window, this.exact.get(line), this.normalised.get(key));
  }
}
