import type { LineSource } from './line-hash.js';
import { LineTable } from './line-table.js';
import type { BlockLocation, BlockMatch } from './match-cascade.js';
import { hasKeyAt, lineKey, MATCH_LEVELS, type MatchLevel } from './normalize-line.js';
import { lineStartAt } from './text-format.js';

/**
 * Finding a block of lines at a match level in O(file + request), whatever the
 * file looks like (a file of `}` lines made the window-by-window scan O(file ×
 * request)). Two ways, the same answer (every start, overlapping ones included,
 * ascending):
 *
 * - through the text: the longest run of the request that every matching file
 *   line must contain verbatim (no whitespace; at the unicode level, none of the
 *   characters typography folds to) is searched with indexOf, and each line it is
 *   on is checked as a candidate start. Fast when the run is rare, so it stops
 *   (and the next way takes over) once candidates would cost more than the file.
 * - through ids: each file line's key becomes the id of the request line with that
 *   key (or none), and the request's id sequence is found with Knuth–Morris–Pratt.
 */
export function locateIndexed(
  source: LineTable | readonly string[],
  needle: readonly string[],
  options: { levels?: readonly MatchLevel[]; from?: number; to?: number } = {},
): BlockLocation | undefined {
  if (needle.length === 0) return undefined;
  const lines: LineSource =
    source instanceof LineTable ? source : { count: source.length, line: (i) => source[i]! };
  const from = options.from ?? 0;
  const to = options.to ?? lines.count;
  for (const level of options.levels ?? MATCH_LEVELS) {
    const keys = needle.map((l) => lineKey(l, level));
    const matches =
      (source instanceof LineTable ? viaText(source, keys, level, from, to) : undefined) ??
      viaIds(lines, keys, level, from, to);
    if (matches.length > 0) return { level, matches };
  }
  return undefined;
}

/** Characters a key's searchable runs are split on: whitespace, and at the unicode level the fold targets. */
const SPLIT: Record<MatchLevel, RegExp> = {
  exact: /\s+/,
  trailing_whitespace: /\s+/,
  indentation: /\s+/,
  unicode: /[\s'".-]+/,
};

/** Shorter runs are too common to narrow anything down. */
const MIN_RUN = 2;

function viaText(
  table: LineTable,
  keys: readonly string[],
  level: MatchLevel,
  from: number,
  to: number,
): BlockMatch[] | undefined {
  const k = keys.length;
  if (to - from < k) return [];
  const { text } = table;
  const stop = table.offset(to);
  const picked = rarestRun(text, table.offset(from), stop, keys, level);
  if (!picked) return undefined;
  const { run, at } = picked;
  // Past this many candidate lines, checking them could cost more than keying every line.
  const budget = Math.max(64, Math.ceil((4 * (to - from)) / k));
  const matches: BlockMatch[] = [];
  let hits = 0;
  for (let p = text.indexOf(run, table.offset(from)); p !== -1 && p < stop; ) {
    if (++hits > budget) return undefined;
    const line = table.lineAt(p);
    const start = line - at;
    if (start >= from && start + k <= to && sameBlock(table, keys, level, start, at))
      matches.push({ start, end: start + k });
    p = text.indexOf(run, table.offset(line + 1));
  }
  return matches;
}

/** A match as character offsets of a text: [start, end) is whole lines, terminators included. */
export interface SpanMatch {
  start: number;
  end: number;
}

/**
 * locateIndexed over a whole text, with no line table: a hit's lines are walked from
 * where it is in the text, so a file is never split into lines for one match (on a
 * dense file, finding every line start cost more than everything else an edit does).
 * The same matches, as offsets; 'not_found' when no level matches; undefined when this
 * way cannot tell (no rare enough run in the request): use locateIndexed then.
 */
export function locateSpans(
  text: string,
  needle: readonly string[],
  levels: readonly MatchLevel[],
): { level: MatchLevel; matches: SpanMatch[] } | 'not_found' | undefined {
  if (needle.length === 0) return undefined;
  for (const level of levels) {
    const keys = needle.map((l) => lineKey(l, level));
    const matches = spansViaText(text, keys, level);
    if (matches === undefined) return undefined;
    if (matches.length > 0) return { level, matches };
  }
  return 'not_found';
}

function spansViaText(text: string, keys: readonly string[], level: MatchLevel): SpanMatch[] | undefined {
  const picked = rarestRun(text, 0, text.length, keys, level);
  if (!picked) return undefined;
  const { run, at } = picked;
  // As viaText's budget, counted in characters (at least one per line): still O(file).
  const budget = Math.max(64, Math.ceil((4 * text.length) / keys.length));
  const matches: SpanMatch[] = [];
  let hits = 0;
  for (let p = text.indexOf(run); p !== -1; ) {
    if (++hits > budget) return undefined;
    const hitLine = lineStartAt(text, p);
    const end = blockEnd(text, hitLine, keys, level, at);
    if (end !== undefined) {
      let start = hitLine;
      for (let j = 0; j < at && start !== -1; j++) start = start === 0 ? -1 : startBefore(text, start - 1);
      if (start !== -1 && blockEnd(text, start, keys, level, 0, at) !== undefined)
        matches.push({ start, end });
    }
    const next = text.indexOf('\n', p);
    p = next === -1 ? -1 : text.indexOf(run, next + 1);
  }
  return matches;
}

/**
 * Walks the lines from offset `s` (a line start): when they have keys[from..to) at
 * `level`, the offset past the last one (its terminator included), else undefined.
 */
function blockEnd(
  text: string,
  s: number,
  keys: readonly string[],
  level: MatchLevel,
  from: number,
  to = keys.length,
): number | undefined {
  let at = s;
  for (let j = from; j < to; j++) {
    if (at >= text.length) return undefined; // a text ending with a newline has no line after it
    const nl = newlineFrom(text, at);
    const contentEnd = nl === -1 ? text.length : nl > at && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    if (!hasKeyAt(text, at, contentEnd, keys[j]!, level)) return undefined;
    at = nl === -1 ? text.length : nl + 1;
  }
  return at;
}

/**
 * A request of a thousand short lines walks a thousand lines: looked at a character at
 * a time first (a native search per line costs more than a short line), then searched.
 */
const LOOKED_AT = 32;

/** The first newline at or after `at`, or -1. */
function newlineFrom(text: string, at: number): number {
  const end = Math.min(text.length, at + LOOKED_AT);
  for (let i = at; i < end; i++) if (text.charCodeAt(i) === 10) return i;
  return end === text.length ? -1 : text.indexOf('\n', end);
}

/** Where the line holding offset `p` starts (as lineStartAt). */
function startBefore(text: string, p: number): number {
  const end = Math.max(0, p - LOOKED_AT);
  for (let i = p - 1; i >= end; i--) if (text.charCodeAt(i) === 10) return i + 1;
  return end === 0 ? 0 : lineStartAt(text, end);
}

/** Runs tried, longest first, when looking for a rare one. */
const RUNS_TRIED = 8;
/** A run found at most this often is rare enough: its lines are checked as they are. */
const RARE = 4;

/** Characters of the request its runs are taken from (in all, first lines first). */
const RUN_CHARS = 1 << 16;
const LONG_RUN = 64;

/**
 * The run of the request to search the text for: the longest runs are counted in
 * the text (each count stops once past RARE), and the first one that rare, else the
 * rarest, is taken. The longest run alone can be on every line (`say(` in a file of
 * `say(…)` calls, where the line's number is what is rare), and each of its hits
 * costs a line check.
 */
function rarestRun(
  text: string,
  begin: number,
  stop: number,
  keys: readonly string[],
  level: MatchLevel,
): { run: string; at: number } | undefined {
  const runs: Array<{ run: string; at: number }> = [];
  const seen = new Set<string>();
  const split = new Set<string>();
  let budget = RUN_CHARS;
  keys.forEach((key, at) => {
    // A key too short for a run, or split already, adds nothing (a request of a thousand `}` lines).
    if (key.length < MIN_RUN || split.has(key) || budget <= 0) return;
    split.add(key);
    // Any run of the request will do, so a few of its characters are enough to choose from:
    // a 10 MB line is not split into two million words (a prefix of a run is a run too).
    const part = key.length > budget ? key.slice(0, budget) : key;
    budget -= part.length;
    for (const whole of part.split(SPLIT[level])) {
      // A long run is searched by its start: the engine's search for a long needle can
      // crawl over repetitive text, and 64 characters are as rare as more.
      const run = whole.length > LONG_RUN ? whole.slice(0, LONG_RUN) : whole;
      if (run.length < MIN_RUN || seen.has(run)) continue;
      seen.add(run);
      runs.push({ run, at });
    }
  });
  runs.sort((a, b) => b.run.length - a.run.length);
  let best: { run: string; at: number } | undefined;
  let fewest = Number.POSITIVE_INFINITY;
  for (const candidate of runs.slice(0, RUNS_TRIED)) {
    let hits = 0;
    for (
      let p = text.indexOf(candidate.run, begin);
      p !== -1 && p < stop && hits <= fewest && hits <= RARE;
      p = text.indexOf(candidate.run, p + 1)
    )
      hits++;
    if (hits < fewest) {
      fewest = hits;
      best = candidate;
    }
    if (hits <= RARE) break;
  }
  return best;
}

/** Whether file lines [start, start + keys.length) have `keys` at `level` (line `first` checked first). */
function sameBlock(
  lines: LineSource,
  keys: readonly string[],
  level: MatchLevel,
  start: number,
  first: number,
): boolean {
  if (lineKey(lines.line(start + first), level) !== keys[first]) return false;
  for (let j = 0; j < keys.length; j++)
    if (j !== first && lineKey(lines.line(start + j), level) !== keys[j]) return false;
  return true;
}

function viaIds(
  lines: LineSource,
  keys: readonly string[],
  level: MatchLevel,
  from: number,
  to: number,
): BlockMatch[] {
  const k = keys.length;
  const ids = new Map<string, number>();
  const pattern = new Int32Array(k);
  keys.forEach((key, j) => {
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    pattern[j] = id;
  });
  // KMP failure function: fail[q] = length of the longest proper border of pattern[0..q].
  const fail = new Int32Array(k);
  for (let q = 1, b = 0; q < k; q++) {
    while (b > 0 && pattern[q] !== pattern[b]) b = fail[b - 1]!;
    if (pattern[q] === pattern[b]) b++;
    fail[q] = b;
  }
  const matches: BlockMatch[] = [];
  let q = 0;
  for (let i = from; i < to; i++) {
    const id = ids.get(lineKey(lines.line(i), level)) ?? -1;
    while (q > 0 && pattern[q] !== id) q = fail[q - 1]!;
    if (pattern[q] === id) q++;
    if (q === k) {
      matches.push({ start: i - k + 1, end: i + 1 });
      q = fail[k - 1]!;
    }
  }
  return matches;
}
