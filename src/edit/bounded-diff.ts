import { copyFields, defineLazyString } from '../text/lazy-string.js';
import { anchoredDiff } from './anchored-diff.js';
import { commonLength } from './common-length.js';
import { LineTable } from './line-table.js';
import { lineStartAt, type TextSplice } from './text-format.js';
import { countHunkLines, formatHunks } from './unified-hunks.js';

export interface BoundedDiff {
  unifiedDiff: string;
  /** Lines added / removed in the FULL diff (never counted on a cut view). */
  added: number;
  removed: number;
  /** Number of lines of unifiedDiff. */
  diffLines: number;
  /** True when the time budget ran out for some region, shown as one block replacement (that region only). */
  coarse: boolean;
  /**
   * With `upTo`: the known changes left out (the diff covers the texts up to the one before
   * them); `added` and `removed` then count the part compared only.
   */
  changesLeft?: number;
  /** With `changesLeft`: the diff's last hunk goes on past its end (its header counts the lines shown). */
  hunkContinues?: boolean;
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
 * Where the two texts differ and what to cut: `head` and `tail` are the characters
 * kept out of the diff (whole lines, `context` lines away from the change), and
 * the change lies in [from, oldEnd) of the old text and [from, newEnd) of the new.
 * A caller's KnownShared bounds the change: the shared prefix never runs past its
 * first change, nor the suffix back past its last, so a line inserted beside equal
 * lines is shown where the edit put it.
 */
function sharedEnds(
  a: string,
  b: string,
  context: number,
  known: KnownShared,
): { head: number; tail: number; lineOffset: number; from: number; oldEnd: number; newEnd: number } {
  const room = Math.min(a.length, b.length);
  const first = known.changes && changeAt(known, 0);
  const last = known.changes && changeAt(known, known.changes.length - 1);
  const prefixRoom = first ? Math.min(first.oldTo, first.newTo) : Math.max(0, room - known.tail);
  const i = commonPrefix(a, b, prefixRoom, known.head);
  const suffixRoom = last ? Math.min(room - i, a.length - last.oldFrom, b.length - last.newFrom) : room - i;
  const j = commonSuffix(a, b, suffixRoom, known.tail);
  // The changed lines: from the start of the line where they differ ...
  const changeStart = i === 0 ? 0 : a.lastIndexOf('\n', i - 1) + 1;
  // ... to the first place in the shared suffix where both texts start a line.
  const suffixStart = a.length - j;
  const newline = a.indexOf('\n', suffixStart);
  const changeEnd =
    startsLine(a, suffixStart) && startsLine(b, b.length - j)
      ? suffixStart
      : newline === -1
        ? a.length
        : newline + 1;
  let head = changeStart;
  for (let k = 0; k < context && head > 0; k++) head = head <= 1 ? 0 : a.lastIndexOf('\n', head - 2) + 1;
  let tailStart = changeEnd;
  for (let k = 0; k < context && tailStart < a.length; k++) {
    const next = a.indexOf('\n', tailStart);
    tailStart = next === -1 ? a.length : next + 1;
  }
  const change = { from: i, oldEnd: a.length - j, newEnd: b.length - j };
  const tail = a.length - tailStart;
  // Not worth slicing: the whole texts are diffed.
  if (head <= 1024 && tail <= 1024) return { head: 0, tail: 0, lineOffset: 0, ...change };
  // Lines before the cut: from the caller's count where given (only the few lines between its
  // head and this one are counted), else counted from the start.
  const lineOffset =
    known.headLines !== undefined && known.head <= a.length
      ? known.headLines +
        (head >= known.head ? newlinesIn(a, known.head, head) : -newlinesIn(a, head, known.head))
      : newlinesIn(a, 0, head);
  return { head, tail, lineOffset, ...change };
}

const startsLine = (t: string, at: number) => at === 0 || t.charCodeAt(at - 1) === 10;

/** The line holding character `at`; at the end of a text whose last line is ended, the (empty) line after it. */
function lineHolding(t: LineTable, at: number): number {
  return at >= t.text.length && startsLine(t.text, at) ? t.count : t.lineAt(at);
}

/**
 * The line ranges [a0, a1, b0, b1) that hold the changes (character ranges of the
 * texts `a` and `b`), merged where they share a line: the lines between them are
 * equal on both sides and are kept as they are. Four numbers a range in one array
 * (a million changes make no million small arrays).
 */
function changedLineRanges(
  a: LineTable,
  b: LineTable,
  count: number,
  changeAt: (k: number) => TextChange,
): Int32Array {
  // Changes that share a line make one range: sized for the fewer of changes and lines, grown
  // if that was wrong (a typed array drops writes past its end).
  let r = new Int32Array(4 * Math.max(1, Math.min(count, a.count + b.count + 1)));
  let n = 0;
  for (let k = 0; k < count; k++) {
    const c = changeAt(k);
    const a0 = lineHolding(a, c.oldFrom);
    const b0 = lineHolding(b, c.newFrom);
    // The change ends at a line start on both sides, or takes in the line it ends in on each
    // (the lines after it then start together, at the first newline after it).
    const whole = startsLine(a.text, c.oldTo) && startsLine(b.text, c.newTo);
    const a1 = Math.max(a0, Math.min(a.count, lineHolding(a, c.oldTo) + (whole ? 0 : 1)));
    const b1 = Math.max(b0, Math.min(b.count, lineHolding(b, c.newTo) + (whole ? 0 : 1)));
    const p = 4 * (n - 1);
    // Sharing a line with the change before (or lines between that do not pair up): one range,
    // ending where this change ends (the line the one before took in for what followed it is in
    // this range either way).
    if (n > 0 && (a0 < r[p + 1]! || b0 < r[p + 3]! || a0 - r[p + 1]! !== b0 - r[p + 3]!)) {
      r[p + 1] = Math.max(r[p]!, a1);
      r[p + 3] = Math.max(r[p + 2]!, b1);
    } else {
      if (4 * n + 4 > r.length) {
        const grown = new Int32Array(2 * r.length);
        grown.set(r);
        r = grown;
      }
      r[4 * n] = a0;
      r[4 * n + 1] = a1;
      r[4 * n + 2] = b0;
      r[4 * n + 3] = b1;
      n++;
    }
  }
  // Lines before the first and after the last range pair up too (else the range takes them in).
  if (r[0] !== r[2]) r[0] = r[2] = 0;
  const last = 4 * (n - 1);
  if (a.count - r[last + 1]! !== b.count - r[last + 3]!) {
    r[last + 1] = a.count;
    r[last + 3] = b.count;
  }
  return r.subarray(0, 4 * n);
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
  /**
   * Each place the edit changed, when it changed several (ascending, offsets in the
   * whole texts; the first starts at `head`, the last ends `tail` before the end):
   * the text between two of them is the same on both sides, and stays out of the diff.
   */
  changes?: ChangeList;
  /**
   * The `changes` count from this many characters before the texts' start (the texts are a
   * window cut from the ones the changes were made in): read through changeAt, never copied.
   */
  changesShift?: number;
}

/** Change k of `known` in the texts' own offsets (a new object: a million changes are not copied to shift them). */
function changeAt(known: KnownShared, k: number): TextChange {
  const c = known.changes!.at(k)!;
  const s = known.changesShift ?? 0;
  return s === 0
    ? c
    : { oldFrom: c.oldFrom - s, oldTo: c.oldTo - s, newFrom: c.newFrom - s, newTo: c.newTo - s };
}

/** Changes read by index (an array of them, or one made as read, see HitChanges). */
export interface ChangeList {
  readonly length: number;
  at(k: number): TextChange | undefined;
  slice(start: number, end: number): ChangeList;
}

/** Characters [oldFrom, oldTo) of the old text became [newFrom, newTo) of the new. */
export interface TextChange {
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

/**
 * A caller's account of where it changed the text (each place, ascending, in the
 * whole texts' offsets), checked against the splice that made the new text (old
 * head + middle + old tail): the splice's ends are shared by construction, and
 * every stretch between the places is compared here, inside the middle only (the
 * new text is never flattened). An account that does not hold is undefined (the
 * caller falls back to the splice's ends), so a wrong one can never make a wrong diff.
 */
export function checkedChanges(
  oldText: string,
  splice: TextSplice,
  changes: ChangeList,
  headLines?: number,
): KnownShared | undefined {
  const { head, middle, tail } = splice;
  const first = changes.at(0);
  if (!first) return undefined;
  const oldEnd = oldText.length - tail;
  const newEnd = head + middle.length;
  // Old [from, to) against new [at, at + to - from), both inside the splice's middle.
  const same = (from: number, to: number, at: number) =>
    from >= head &&
    to <= oldEnd &&
    at >= head &&
    at + (to - from) <= newEnd &&
    oldText.slice(from, to) === middle.slice(at - head, at - head + (to - from));
  let oldAt = head;
  let newAt = head;
  for (let k = 0; k < changes.length; k++) {
    const c = changes.at(k)!;
    if (c.oldFrom < oldAt || c.oldTo < c.oldFrom || c.newTo < c.newFrom) return undefined;
    if (c.oldFrom - oldAt !== c.newFrom - newAt || !same(oldAt, c.oldFrom, newAt)) return undefined;
    oldAt = c.oldTo;
    newAt = c.newTo;
  }
  if (oldEnd - oldAt !== newEnd - newAt || !same(oldAt, oldEnd, newAt)) return undefined;
  return {
    head: first.oldFrom,
    tail: oldText.length - oldAt,
    ...(headLines === undefined ? {} : { headLines }),
    ...(changes.length > 1 ? { changes } : {}),
  };
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

/** Known changes from which a reader's diff is built only as far as it reads (see `upTo`). */
const PREFIX_FROM = 10_000;
/** Changes looked at past the budget for a place where the diff's hunks part. */
const PART_SEARCH = 10_000;

/**
 * The texts up to where the diff surely holds `upTo` characters (each change shows at
 * least its own characters on both sides, and a mark and a newline for each), for an
 * edit of PREFIX_FROM changes or more; undefined when the whole diff is wanted.
 * Cut where the full diff's hunks part (more than twice `context` unchanged lines
 * before the next change; the cut keeps `context` of them), so the prefix's hunks are
 * the full diff's first hunks, headers and all. Where no such place comes soon (every
 * line changed), at the end of a changed line: the last hunk then continues past it.
 */
function changesPrefix(
  oldText: string,
  newText: string,
  { known, splice }: { known?: KnownShared; splice?: TextSplice },
  upTo: number,
  context: number,
):
  | { oldText: string; newText: string; known: KnownShared; changesLeft: number; hunkContinues: boolean }
  | undefined {
  const changes = known?.changes;
  if (!changes || changes.length < PREFIX_FROM) return undefined;
  const nth = (k: number) => changeAt(known!, k);
  let k = 0;
  for (let shown = 0; k < changes.length - 1; k++) {
    const c = nth(k);
    shown += c.oldTo - c.oldFrom + (c.newTo - c.newFrom) + 4;
    if (shown > upTo) break;
  }
  // A new-text character before the last change's end (the tail is never reached).
  const newCharAt = (p: number) =>
    splice
      ? p < splice.head
        ? oldText.charCodeAt(p)
        : splice.middle.charCodeAt(p - splice.head)
      : newText.charCodeAt(p);
  let lineCut: { cut: number; j: number } | undefined;
  // The first newline at or after the last change looked at (the text's length: none). Changes
  // come in order, so many changes on one long line find it once, not once each.
  let newlineAfter = -1;
  for (let j = k; j < Math.min(changes.length - 1, k + PART_SEARCH); j++) {
    const c = nth(j);
    // The end of the change's last line; the next change must start after it.
    if (startsLine(oldText, c.oldTo)) newlineAfter = c.oldTo - 1;
    else if (newlineAfter < c.oldTo) {
      const found = oldText.indexOf('\n', c.oldTo);
      newlineAfter = found === -1 ? oldText.length : found;
    }
    const lineEnd = newlineAfter === -1 ? oldText.length : Math.min(oldText.length, newlineAfter + 1);
    // The next change starts on this line (a line start at or past lineEnd is past it).
    if (nth(j + 1).oldFrom < lineEnd) continue;
    const nextLine = lineStartAt(oldText, nth(j + 1).oldFrom);
    // A line end on the new side too: a change that joined lines (its old text ends with a
    // newline, its new text does not) goes on into the next line there.
    const newLineEnd = lineEnd + (c.newTo - c.oldTo);
    if (newLineEnd > 0 && newCharAt(newLineEnd - 1) !== 10) continue;
    lineCut ??= { cut: lineEnd, j };
    // Unchanged lines before the next change's line, counted up to 2 × context + 1.
    let at = lineEnd;
    let keptTo = lineEnd;
    let lines = 0;
    for (; lines <= 2 * context && at < nextLine; lines++) {
      at = oldText.indexOf('\n', at) + 1;
      if (lines < context) keptTo = at;
    }
    if (lines > 2 * context) return prefixAt(keptTo, j, false);
  }
  return lineCut && prefixAt(lineCut.cut, lineCut.j, true);

  function prefixAt(cut: number, j: number, hunkContinues: boolean) {
    const c = nth(j);
    const newCut = cut + (c.newTo - c.oldTo);
    return {
      oldText: oldText.slice(0, cut),
      newText: splice
        ? oldText.slice(0, splice.head) + splice.middle.slice(0, newCut - splice.head)
        : newText.slice(0, newCut),
      known: {
        head: known!.head,
        tail: cut - c.oldTo,
        ...(known!.headLines !== undefined ? { headLines: known!.headLines } : {}),
        changes: changes!.slice(0, j + 1),
        ...(known!.changesShift ? { changesShift: known!.changesShift } : {}),
      },
      changesLeft: changes!.length - j - 1,
      hunkContinues,
    };
  }
}

/** Below this many characters a splice's new text is diffed whole: a window saves nothing. */
const WINDOW_FROM = 1 << 16;

/**
 * The lines of both texts around a splice: from `context + 1` lines before the first
 * character it (or the caller's KnownShared) changes to `context + 2` lines after the
 * last, with the caller's KnownShared moved into the window. Everything a diff cuts
 * away as shared lies outside, so the window's diff is the whole texts' diff, its
 * hunk headers moved down by `linesBefore`.
 */
function spliceWindow(
  oldText: string,
  newText: string,
  splice: TextSplice,
  context: number,
  known: KnownShared | undefined,
): { oldText: string; newText: string; known: KnownShared; linesBefore: number } | undefined {
  if (oldText.length < WINDOW_FROM) return undefined;
  const head = Math.min(splice.head, known?.head ?? splice.head);
  const tail = Math.min(splice.tail, known?.tail ?? splice.tail);
  let lo = lineStartAt(oldText, head);
  for (let k = 0; k <= context && lo > 0; k++) lo = lineStartAt(oldText, lo - 1);
  let hi = oldText.length - tail;
  for (let k = 0; k <= context + 1 && hi < oldText.length; k++) {
    const newline = oldText.indexOf('\n', hi);
    hi = newline === -1 ? oldText.length : newline + 1;
  }
  const linesBefore =
    known?.headLines !== undefined
      ? known.headLines - newlinesIn(oldText, lo, known.head)
      : newlinesIn(oldText, 0, lo);
  // A window of most of the text is cut from the new text itself: joined from its three
  // pieces, it would be copied whole when first read, a second copy of a big new text.
  const grown = splice.middle.length - (oldText.length - splice.head - splice.tail);
  return {
    oldText: oldText.slice(lo, hi),
    newText:
      2 * (hi - lo) > oldText.length
        ? newText.slice(lo, hi + grown)
        : oldText.slice(lo, splice.head) + splice.middle + oldText.slice(oldText.length - splice.tail, hi),
    known: {
      head: (known?.head ?? head) - lo,
      tail: (known?.tail ?? tail) - (oldText.length - hi),
      ...(known?.headLines !== undefined ? { headLines: known.headLines - linesBefore } : {}),
      ...(known?.changes ? { changes: known.changes, changesShift: (known.changesShift ?? 0) + lo } : {}),
    },
    linesBefore,
  };
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
    /**
     * newText as oldText with [head, length - tail) replaced by `middle`, when the caller
     * has it apart: then only a window of lines around the change is compared, and
     * newText itself is read only when that window is most of it (reading a big text joined
     * from pieces copies it whole).
     * Without `known`, the splice's ends are the known shared ends: the change is shown
     * where the splice made it.
     */
    splice?: TextSplice;
    /** Lines before the texts given (they are slices of bigger ones): hunk headers count from there. */
    firstLine?: number;
    /**
     * For a reader with little room (a model's context): a run of more added or removed
     * lines than this shows its first and last halves and a count of the rest. The
     * result is then a summary, not a patch to apply.
     */
    shownPerRun?: number;
    /**
     * For a reader that stops after this many characters (a model's result): with many
     * known changes, only the texts up to where the diff surely holds that many are
     * compared, and `changesLeft` counts the changes after (a replace_all of a million
     * lines would otherwise build a diff of two million lines to show a few hundred).
     */
    upTo?: number;
  },
): BoundedDiff {
  const context = options.context ?? 3;
  const prefix =
    options.upTo !== undefined && changesPrefix(oldText, newText, options, options.upTo, context);
  if (prefix) {
    const { upTo: _, splice: __, ...rest } = options;
    const diff = boundedUnifiedDiff(prefix.oldText, prefix.newText, { ...rest, known: prefix.known });
    return copyFields(diff, {
      changesLeft: prefix.changesLeft,
      ...(prefix.hunkContinues ? { hunkContinues: true } : {}),
    });
  }
  const window = options.splice && spliceWindow(oldText, newText, options.splice, context, options.known);
  if (window) {
    const { splice: _, ...rest } = options;
    return boundedUnifiedDiff(window.oldText, window.newText, {
      ...rest,
      known: window.known,
      firstLine: (options.firstLine ?? 0) + window.linesBefore,
    });
  }
  // Large files differ in a small region: cut the shared head and tail by string comparison
  // first, so only the changed middle (plus context) is ever split into lines.
  const known =
    options.known ??
    (options.splice ? { head: options.splice.head, tail: options.splice.tail } : { head: 0, tail: 0 });
  const cut = sharedEnds(oldText, newText, context, known);
  const a = new LineTable(oldText.slice(cut.head, oldText.length - cut.tail));
  const b = new LineTable(newText.slice(cut.head, newText.length - cut.tail));
  const firstLine = (options.firstLine ?? 0) + cut.lineOffset;
  const header = `--- a${options.oldPath}\n+++ b${options.newPath}\n`;
  // The changes as the slices see them: the first from where the texts differ, the last up
  // to where they agree again; the places between are the caller's.
  const given = options.known;
  const count = given?.changes && given.changes.length > 1 ? given.changes.length : 1;
  const changeInSlices = (k: number): TextChange => {
    const c = count > 1 ? changeAt(given!, k) : undefined;
    return {
      oldFrom: (k === 0 ? cut.from : c!.oldFrom) - cut.head,
      newFrom: (k === 0 ? cut.from : c!.newFrom) - cut.head,
      oldTo: (k === count - 1 ? cut.oldEnd : c!.oldTo) - cut.head,
      newTo: (k === count - 1 ? cut.newEnd : c!.newTo) - cut.head,
    };
  };
  const regions = changedLineRanges(a, b, count, changeInSlices);
  const { runs, coarse } = anchoredDiff(a, b, options.timeBudgetMs ?? 300, regions);
  const added = runs.total('+');
  const removed = runs.total('-');
  if (added === 0 && removed === 0)
    return { unifiedDiff: '', added: 0, removed: 0, diffLines: 0, coarse: false };
  // The text is written when first read: counted now, so an approval decided without
  // looking (a policy) never holds a diff of two million lines.
  const { shownPerRun } = options;
  const diffLines = countHunkLines(a, b, runs, context, shownPerRun, header);
  return defineLazyString({ unifiedDiff: '', added, removed, diffLines, coarse }, 'unifiedDiff', () => {
    const hunks = formatHunks(a, b, runs, context, firstLine, shownPerRun, header);
    return hunks.text;
  });
}
