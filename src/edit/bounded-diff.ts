import { structuredPatch } from 'diff';

export interface BoundedDiff {
  unifiedDiff: string;
  /** Lines added / removed in the FULL diff (never counted on a cut view). */
  added: number;
  removed: number;
  /** Number of lines of unifiedDiff. */
  diffLines: number;
  /** True when the time budget ran out and the middle was shown as one block replacement. */
  coarse: boolean;
}

/** Splits keeping terminators, so the pieces concatenate back to the exact text. */
function linesWithEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Chunk compared by one native string comparison before falling back to single characters. */
const CHUNK = 4096;

/** Length of the common prefix (at least `known`): whole chunks compared natively (memcmp), then by character. */
function commonPrefix(a: string, b: string, max: number, known: number): number {
  let i = Math.min(known, max);
  while (i + CHUNK <= max && a.slice(i, i + CHUNK) === b.slice(i, i + CHUNK)) i += CHUNK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
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
  let head = a.lastIndexOf('\n', i - 1) + 1;
  for (let k = 0; k < context && head > 0; k++) head = a.lastIndexOf('\n', head - 2) + 1;
  // Tail: forward past the end of the changed line, then `context` more lines.
  let tailStart = a.indexOf('\n', a.length - j - 1);
  for (let k = 0; k < context && tailStart !== -1; k++) tailStart = a.indexOf('\n', tailStart + 1);
  const tail = tailStart === -1 ? 0 : a.length - (tailStart + 1);
  // The tail must also end on a line boundary in b (it does: it is the same suffix).
  const safeTail = tail > 0 && b.length - tail > head ? tail : 0;
  let lineOffset = 0;
  for (let k = a.indexOf('\n'); k !== -1 && k < head; k = a.indexOf('\n', k + 1)) lineOffset++;
  return head > 1024 || safeTail > 1024
    ? { head, tail: safeTail, lineOffset }
    : { head: 0, tail: 0, lineOffset: 0 };
}

/** Moves every hunk header of a unified diff down by `lines` (the diff was computed on a slice). */
export function shiftHunkHeaders(unifiedDiff: string, lines: number): string {
  return unifiedDiff.replace(
    /^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@/gm,
    (_m, os: string, oc: string | undefined, ns: string, nc: string | undefined) =>
      `@@ -${Number(os) + lines}${oc ?? ''} +${Number(ns) + lines}${nc ?? ''} @@`,
  );
}

function shiftHunks(diff: BoundedDiff, lines: number): BoundedDiff {
  return { ...diff, unifiedDiff: shiftHunkHeaders(diff.unifiedDiff, lines) };
}

/**
 * Characters a caller already knows both texts share at the start and at the end
 * (an edit knows where it changed the text): those are not compared again. A hint
 * only saves work; the diff is the same with or without it.
 */
export interface KnownShared {
  head: number;
  tail: number;
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
 * A unified diff of two texts that stays cheap on any input: the common prefix
 * and suffix lines are trimmed first (an edit's diff is then computed around the
 * changed region only), and the middle is diffed under a time budget; when that
 * runs out the middle is shown as one coarse block (marked `coarse`).
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
  },
): BoundedDiff {
  const context = options.context ?? 3;
  // Large files differ in a small region: cut the shared head and tail by string comparison
  // first, so only the changed middle (plus context) is ever split into lines.
  const cut = sharedEnds(oldText, newText, context, options.known ?? { head: 0, tail: 0 });
  if (cut.head > 0 || cut.tail > 0) {
    const inner = boundedUnifiedDiff(
      oldText.slice(cut.head, oldText.length - cut.tail),
      newText.slice(cut.head, newText.length - cut.tail),
      { oldPath: options.oldPath, newPath: options.newPath, context, ...timeBudget(options) },
    );
    return cut.lineOffset === 0 ? inner : shiftHunks(inner, cut.lineOffset);
  }
  const a = linesWithEnds(oldText);
  const b = linesWithEnds(newText);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  const header = `--- a${options.oldPath}\n+++ b${options.newPath}\n`;
  if (prefix === a.length && prefix === b.length) {
    return { unifiedDiff: '', added: 0, removed: 0, diffLines: 0, coarse: false };
  }
  // Texts that share almost no lines: a line diff is noise and Myers is at its slowest, so
  // show the middle as one replacement straight away (still a correct, applicable diff).
  if (mostlyUnrelated(a, b, prefix, suffix)) {
    const body = coarseHunk(a, b, prefix, suffix, context);
    const { added, removed } = countDiffLines(body);
    const unifiedDiff = header + body;
    return { unifiedDiff, added, removed, diffLines: unifiedDiff.split('\n').length - 1, coarse: false };
  }
  const from = Math.max(0, prefix - context);
  const aTo = Math.min(a.length, a.length - suffix + context);
  const bTo = Math.min(b.length, b.length - suffix + context);
  const oldMid = a.slice(from, aTo).join('');
  const newMid = b.slice(from, bTo).join('');
  const patch = structuredPatch('a', 'b', oldMid, newMid, undefined, undefined, {
    context,
    timeout: options.timeBudgetMs ?? 300,
  });
  let body: string;
  let coarse = false;
  if (patch) {
    body = patch.hunks
      .map((h) => {
        // GNU convention (as diff's formatPatch writes it): an empty range names the line before it.
        const oldStart = h.oldStart + from - (h.oldLines === 0 ? 1 : 0);
        const newStart = h.newStart + from - (h.newLines === 0 ? 1 : 0);
        return `@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@\n${h.lines.join('\n')}\n`;
      })
      .join('');
  } else {
    coarse = true;
    body = coarseHunk(a, b, prefix, suffix, context);
  }
  const unifiedDiff = header + body;
  const { added, removed } = countDiffLines(body);
  return { unifiedDiff, added, removed, diffLines: unifiedDiff.split('\n').length - 1, coarse };
}

const timeBudget = (o: { timeBudgetMs?: number }) =>
  o.timeBudgetMs === undefined ? {} : { timeBudgetMs: o.timeBudgetMs };

/** True when fewer than 5% of the new middle's lines occur in the old middle (checked only for big middles). */
function mostlyUnrelated(a: string[], b: string[], prefix: number, suffix: number): boolean {
  const oldCount = a.length - suffix - prefix;
  const newCount = b.length - suffix - prefix;
  if (oldCount < 500 || newCount < 500) return false;
  const old = new Set(a.slice(prefix, a.length - suffix));
  let shared = 0;
  for (let i = prefix; i < b.length - suffix; i++) if (old.has(b[i]!)) shared++;
  return shared < newCount * 0.05;
}

/** One hunk that removes the whole changed middle and adds the new one. */
function coarseHunk(a: string[], b: string[], prefix: number, suffix: number, context: number): string {
  const before = a.slice(Math.max(0, prefix - context), prefix);
  const after = a.slice(a.length - suffix, Math.min(a.length, a.length - suffix + context));
  const removed = a.slice(prefix, a.length - suffix);
  const added = b.slice(prefix, b.length - suffix);
  const strip = (l: string) => (l.endsWith('\n') ? l.slice(0, -1) : `${l}\n\\ No newline at end of file`);
  const lines = [
    ...before.map((l) => ` ${strip(l)}`),
    ...removed.map((l) => `-${strip(l)}`),
    ...added.map((l) => `+${strip(l)}`),
    ...after.map((l) => ` ${strip(l)}`),
  ];
  const start = Math.max(0, prefix - context) + 1;
  const oldCount = before.length + removed.length + after.length;
  const newCount = before.length + added.length + after.length;
  return `@@ -${oldCount ? start : start - 1},${oldCount} +${newCount ? start : start - 1},${newCount} @@\n${lines.join('\n')}\n`;
}
