import { anchoredDiff } from './anchored-diff.js';
import { commonLength } from './common-length.js';
import { LineTable } from './line-table.js';
import { countOf } from './text-format.js';
import { formatHunks } from './unified-hunks.js';

export interface BoundedDiff {
  unifiedDiff: string;
  /** Lines added / removed in the FULL diff (never counted on a cut view). */
  added: number;
  removed: number;
  /** Number of lines of unifiedDiff. */
  diffLines: number;
  /** True when the time budget ran out for some region, shown as one block replacement (that region only). */
  coarse: boolean;
}

/** Chunk compared by one native string comparison before falling back to single characters. */
const CHUNK = 4096;

/** Length of the common prefix of the first `max` characters (at least `known`). */
function commonPrefix(a: string, b: string, max: number, known: number): number {
  const i = Math.min(known, max);
  return i + commonLength(a, i, max, b, i, max);
}

/** Length of the common suffix (at least `known`), at most `max` characters, the same way from the ends. */
function commonSuffix(a: string, b: string, max: number, known: number): number {
  let j = Math.min(known, max);
  while (
    j + CHUNK <= max &&
    a.slice(a.length - j - CHUNK, a.length - j) === b.slice(b.length - j - CHUNK, b.length - j)
  )
    j += CHUNK;
  while (j < max && a.charCodeAt(a.length - 1 - j) === b.charCodeAt(b.length - 1 - j)) j++;
  return j;
}

/**
 * Where the two texts differ, cut to whole lines: `head` and `tail` are the
 * characters kept out of the diff (`context` lines away from the change), and
 * `fixedHead` / `fixedTail` the whole lines between those cuts and the change,
 * equal on both sides. A caller's KnownShared bounds the change: the shared
 * prefix never runs past its tail, nor the suffix past its head, so an inserted
 * line equal to its neighbours is shown where the edit put it.
 */
function sharedEnds(
  a: string,
  b: string,
  context: number,
  known: KnownShared,
): { head: number; tail: number; lineOffset: number; fixedHead: number; fixedTail: number } {
  const bound = Math.max(0, Math.min(a.length, b.length) - known.tail);
  const i = commonPrefix(a, b, bound, known.head);
  const j = commonSuffix(a, b, Math.min(a.length, b.length) - i, known.tail);
  // The changed lines: from the start of the line where they differ ...
  const changeStart = i === 0 ? 0 : a.lastIndexOf('\n', i - 1) + 1;
  // ... to the first place in the shared suffix where both texts start a line.
  const suffixStart = a.length - j;
  const startsLine = (t: string, at: number) => at === 0 || t.charCodeAt(at - 1) === 10;
  const newline = a.indexOf('\n', suffixStart);
  const changeEnd =
    startsLine(a, suffixStart) && startsLine(b, b.length - j)
      ? suffixStart
      : newline === -1
        ? a.length
        : newline + 1;
  let head = changeStart;
  let fixedHead = 0;
  for (; fixedHead < context && head > 0; fixedHead++)
    head = head <= 1 ? 0 : a.lastIndexOf('\n', head - 2) + 1;
  let tailStart = changeEnd;
  let fixedTail = 0;
  for (; fixedTail < context && tailStart < a.length; fixedTail++) {
    const next = a.indexOf('\n', tailStart);
    tailStart = next === -1 ? a.length : next + 1;
  }
  const tail = a.length - tailStart;
  if (head <= 1024 && tail <= 1024) {
    // Not worth slicing: the whole texts are diffed, with every line outside the change fixed.
    return {
      head: 0,
      tail: 0,
      lineOffset: 0,
      fixedHead: newlinesIn(a, 0, changeStart),
      fixedTail: linesFrom(a, changeEnd),
    };
  }
  // Lines before the cut: from the caller's count where given (only the few lines between its
  // head and this one are counted), else counted from the start.
  const lineOffset =
    known.headLines !== undefined && known.head <= a.length
      ? known.headLines +
        (head >= known.head ? newlinesIn(a, known.head, head) : -newlinesIn(a, head, known.head))
      : newlinesIn(a, 0, head);
  return { head, tail, lineOffset, fixedHead, fixedTail };
}

/** Lines (the last one may be unterminated) from `from` to the end of `text`. */
function linesFrom(text: string, from: number): number {
  if (from >= text.length) return 0;
  return newlinesIn(text, from, text.length) + (text.charCodeAt(text.length - 1) === 10 ? 0 : 1);
}

function newlinesIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = text.indexOf('\n', from); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) n++;
  return n;
}

/** Moves every hunk header of a unified diff down by `lines` (the diff was computed on a slice). */
export function shiftHunkHeaders(unifiedDiff: string, lines: number): string {
  return unifiedDiff.replace(
    /^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@/gm,
    (_m, os: string, oc: string | undefined, ns: string, nc: string | undefined) =>
      `@@ -${Number(os) + lines}${oc ?? ''} +${Number(ns) + lines}${nc ?? ''} @@`,
  );
}

/**
 * Characters a caller knows both texts share at the start and at the end (an edit
 * knows where it changed the text): those are not compared again, and the diff
 * shows the change between them. Without it, a line inserted beside equal lines
 * may be shown anywhere along them; with it, it is shown where the edit put it.
 */
export interface KnownShared {
  head: number;
  tail: number;
  /** Newlines in the first `head` characters, when the caller knows it (an edit knows its line). */
  headLines?: number;
}

/**
 * A caller's guess of where it changed the text, checked: `window` is known
 * shared (the text outside a splice's middle is copied), and the part of the
 * window the guess adds is compared here (a few lines, never the file). A guess
 * that does not hold falls back to the window.
 */
export function checkedShared(
  oldText: string,
  newText: string,
  window: { head: number; tail: number },
  guess: KnownShared,
): KnownShared {
  const room = Math.min(oldText.length, newText.length);
  const holds =
    guess.head >= window.head &&
    guess.tail >= window.tail &&
    guess.head + guess.tail <= room &&
    oldText.slice(window.head, guess.head) === newText.slice(window.head, guess.head) &&
    oldText.slice(oldText.length - guess.tail, oldText.length - window.tail) ===
      newText.slice(newText.length - guess.tail, newText.length - window.tail);
  return holds ? guess : { head: window.head, tail: window.tail };
}

/** Counts `+` and `-` lines of a unified diff (headers excluded). */
export function countDiffLines(unifiedDiff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of unifiedDiff.split('\n')) {
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/**
 * A unified diff of two texts that stays cheap and exact on any input: the common
 * prefix and suffix are trimmed first by string comparison (an edit's diff is then
 * computed around the changed region only), and the middle is diffed anchored on
 * unique lines (anchoredDiff), each region between anchors under the time budget;
 * a region that runs out is shown as one block (marked `coarse`), never the file.
 */
export function boundedUnifiedDiff(
  oldText: string,
  newText: string,
  options: {
    oldPath: string;
    newPath: string;
    context?: number;
    timeBudgetMs?: number;
    known?: KnownShared;
    /** Lines before the texts given (they are slices of bigger ones): hunk headers count from there. */
    firstLine?: number;
    /**
     * For a reader with little room (a model's context): a run of more added or removed
     * lines than this shows its first and last halves and a count of the rest. The
     * result is then a summary, not a patch to apply.
     */
    shownPerRun?: number;
  },
): BoundedDiff {
  const context = options.context ?? 3;
  // Large files differ in a small region: cut the shared head and tail by string comparison
  // first, so only the changed middle (plus context) is ever split into lines.
  const cut = sharedEnds(oldText, newText, context, options.known ?? { head: 0, tail: 0 });
  const a = new LineTable(oldText.slice(cut.head, oldText.length - cut.tail));
  const b = new LineTable(newText.slice(cut.head, newText.length - cut.tail));
  const firstLine = (options.firstLine ?? 0) + cut.lineOffset;
  const header = `--- a${options.oldPath}\n+++ b${options.newPath}\n`;
  const { runs, coarse } = anchoredDiff(a, b, options.timeBudgetMs ?? 300, {
    head: cut.fixedHead,
    tail: cut.fixedTail,
  });
  if (runs.every((r) => r.kind === '='))
    return { unifiedDiff: '', added: 0, removed: 0, diffLines: 0, coarse: false };
  const body = formatHunks(a, b, runs, context, firstLine, options.shownPerRun);
  const unifiedDiff = header + body;
  let added = 0;
  let removed = 0;
  for (const r of runs) {
    if (r.kind === '+') added += r.count;
    else if (r.kind === '-') removed += r.count;
  }
  return { unifiedDiff, added, removed, diffLines: countOf(unifiedDiff, '\n'), coarse };
}

const timeBudget = (o: { timeBudgetMs?: number }) =>
  o.timeBudgetMs === undefined ? {} : { timeBudgetMs: o.timeBudgetMs };
