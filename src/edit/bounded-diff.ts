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
 * Characters at the start and end that both texts share, cut back to whole lines and
 * kept `context` lines away from the change (those lines belong in the diff).
 */
function sharedEnds(
  a: string,
  b: string,
  context: number,
  known: KnownShared,
): { head: number; tail: number; lineOffset: number } {
  const max = Math.min(a.length, b.length);
  const i = commonPrefix(a, b, max, known.head);
  const j = commonSuffix(a, b, max - i, known.tail);
  // Head: back to a line start, then `context` more lines back.
  // (lastIndexOf with a negative position still looks at index 0: guard the file's start.)
  let head = i === 0 ? 0 : a.lastIndexOf('\n', i - 1) + 1;
  for (let k = 0; k < context && head > 0; k++) head = head <= 1 ? 0 : a.lastIndexOf('\n', head - 2) + 1;
  // Tail: forward past the end of the changed line, then `context` more lines.
  let tailStart = a.indexOf('\n', a.length - j - 1);
  for (let k = 0; k < context && tailStart !== -1; k++) tailStart = a.indexOf('\n', tailStart + 1);
  const tail = tailStart === -1 ? 0 : a.length - (tailStart + 1);
  // The tail must also end on a line boundary in b (it does: it is the same suffix).
  const safeTail = tail > 0 && b.length - tail > head ? tail : 0;
  // Lines before the cut: from the caller's count where given (only the few lines between its
  // head and this one are counted), else counted from the start.
  const lineOffset =
    known.headLines !== undefined && known.head <= a.length
      ? known.headLines +
        (head >= known.head ? newlinesIn(a, known.head, head) : -newlinesIn(a, head, known.head))
      : newlinesIn(a, 0, head);
  return head > 1024 || safeTail > 1024
    ? { head, tail: safeTail, lineOffset }
    : { head: 0, tail: 0, lineOffset: 0 };
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
 * Characters a caller already knows both texts share at the start and at the end
 * (an edit knows where it changed the text): those are not compared again. A hint
 * only saves work; the diff is the same with or without it.
 */
export interface KnownShared {
  head: number;
  tail: number;
  /** Newlines in the first `head` characters, when the caller knows it (an edit knows its line). */
  headLines?: number;
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
  if (cut.head > 0 || cut.tail > 0) {
    return boundedUnifiedDiff(
      oldText.slice(cut.head, oldText.length - cut.tail),
      newText.slice(cut.head, newText.length - cut.tail),
      {
        oldPath: options.oldPath,
        newPath: options.newPath,
        context,
        firstLine: (options.firstLine ?? 0) + cut.lineOffset,
        ...timeBudget(options),
        ...(options.shownPerRun === undefined ? {} : { shownPerRun: options.shownPerRun }),
      },
    );
  }
  const a = new LineTable(oldText);
  const b = new LineTable(newText);
  const header = `--- a${options.oldPath}\n+++ b${options.newPath}\n`;
  const { runs, coarse } = anchoredDiff(a, b, options.timeBudgetMs ?? 300);
  if (runs.every((r) => r.kind === '='))
    return { unifiedDiff: '', added: 0, removed: 0, diffLines: 0, coarse: false };
  const body = formatHunks(a, b, runs, context, options.firstLine ?? 0, options.shownPerRun);
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
