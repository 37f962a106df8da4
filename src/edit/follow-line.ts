import { forcedMatch } from './forced-match.js';
import { hex } from './line-hash.js';
import { type KeptRun, keptRun, mapLine } from './map-line.js';
import type { LineIndex } from './resolve-anchor.js';

/**
 * Where line `at` of a read is in the current file, or why it cannot be said.
 *
 * A line diff places a line exactly up to equal-cost choices, and those are the
 * cases where the file alone cannot say which line the read showed: a copy of the
 * line (or of its block) added or removed beside it, one of two identical blocks
 * deleted, a twin moved from one end of a run of twins to the other. Any such
 * choice can be made the other way, so the line is placed twice, by the diff of
 * the texts and by the diff of the texts reversed (every tie broken the opposite
 * way: the common suffix before the prefix, tails before heads), and followed
 * only when both agree. Otherwise it is 'unsure' (refused, never guessed); where
 * both say the line is gone, 'changed'.
 */
export function followLine(
  read: LineIndex,
  current: LineIndex,
  at: number,
): number | 'changed' | 'unsure' | undefined {
  const forward = mapLine(read.full, current.full, at);
  if (forward === undefined) return undefined;
  const { before, after } = reversed(read.full, current.full);
  const back = mapLine(before, after, read.count - 1 - at);
  if (back === undefined) return undefined;
  const backward = typeof back === 'number' ? current.count - 1 - back : back;
  if (forward !== backward) return 'unsure';
  if (typeof forward !== 'number') return forward;
  if (slides(read.full, current.full, at, forward)) return 'unsure';
  return forcedNearby(read, current, at, forward);
}

/** Lines each side of the line read whose alignment is searched exhaustively. */
const WINDOW = 128;

/**
 * The greedy diffs and the slide check see the usual ties; a copy can also take
 * the line's place from further off (part of a group jumping a run of twins, a
 * twin deleted far side while another is inserted), and a line with no copy can
 * be one deleted while its twin is written elsewhere at the same cost as keeping
 * it (patience diffing anchors on it regardless). So a line is followed only when
 * every longest alignment of the window around it keeps it at the same line: the
 * window runs between the nearest lines the diff kept at least WINDOW lines away
 * (or the file's ends). A line unique in both texts needs no search when the
 * stretch kept around it reaches the window's start or end (see reachesEdge).
 */
function forcedNearby(read: LineIndex, current: LineIndex, at: number, mapped: number): number | 'unsure' {
  const key = hex(read.full[at]!, 8);
  if (read.candidates(key).length === 1 && current.candidates(key).length === 1) {
    const run = keptRun(read.full, current.full, at);
    if (run && reachesEdge(run, at, read.count, current.count)) return mapped;
  }
  let lo = at - WINDOW - 1;
  let loNow = -1;
  for (; lo >= 0; lo--) {
    const m = mapLine(read.full, current.full, lo);
    if (typeof m === 'number') {
      loNow = m;
      break;
    }
  }
  let hi = at + WINDOW + 1;
  let hiNow = current.count;
  for (; hi < read.count; hi++) {
    const m = mapLine(read.full, current.full, hi);
    if (typeof m === 'number') {
      hiNow = m;
      break;
    }
  }
  if (hi > read.count) hi = read.count;
  if (lo < -1) lo = -1;
  const j = forcedMatch(read.full.subarray(lo + 1, hi), current.full.subarray(loNow + 1, hiNow), at - lo - 1);
  return typeof j === 'number' && loNow + 1 + j === mapped ? mapped : 'unsure';
}

/**
 * Whether the kept stretch holding line `at` runs unchanged from it to the window's
 * start or to its end (both texts alike there). A line with no copy on either side
 * then stays where it is in every longest alignment of the window: one leaving it out
 * can be made longer by keeping that whole stretch instead.
 */
function reachesEdge(run: KeptRun, at: number, readCount: number, currentCount: number): boolean {
  const back = run.readFrom <= at - WINDOW - 1 || (run.readFrom === 0 && run.curFrom === 0);
  const ahead = run.readTo >= at + WINDOW + 2 || (run.readTo === readCount && run.curTo === currentCount);
  return back || ahead;
}

/** Groups of up to this many lines are tried for a slide. */
const SLIDE_GROUP = 64;
/**
 * Line comparisons a slide check may make in all. A stretch that is not periodic fails
 * at its first few comparisons, however long it is; one that is (a file of `}` lines)
 * is found periodic by one scan. Past the budget a slide is taken as possible.
 */
const SLIDE_BUDGET = 1 << 22;

/**
 * Whether some of the lines removed or inserted right next to the kept stretch
 * holding the line could slide across it at the same cost: the lines they pass
 * are copies of them (a copy of the line added beside it, one item removed from a
 * run of identical items). The part next to the stretch slides on its own even
 * when the rest of its group replaces other lines, so every size of it is tried.
 */
function slides(before: Uint32Array, after: Uint32Array, at: number, mapped: number): boolean {
  const run = keptRun(before, after, at);
  if (!run) return false;
  let budget = SLIDE_BUDGET;
  // h[i] === h[i + k] for every i in [lo, hi]: k lines slide over that stretch.
  const periodic = (h: Uint32Array, k: number, lo: number, hi: number) => {
    for (let i = lo; i <= hi; i++) {
      if (h[i] !== h[i + k]) return false;
      if (--budget < 0) return true;
    }
    return true;
  };
  for (let k = 1; k <= SLIDE_GROUP; k++) {
    if (k <= run.insertedBefore && periodic(after, k, run.curFrom - k, mapped - k)) return true;
    if (k <= run.removedBefore && periodic(before, k, run.readFrom - k, at - k)) return true;
    if (k <= run.insertedAfter && periodic(after, k, mapped, run.curTo - 1)) return true;
    if (k <= run.removedAfter && periodic(before, k, at, run.readTo - 1)) return true;
  }
  return false;
}

/** The two texts' line hashes reversed, once per pair (each reversed diff is then cached by mapLine). */
const reversals = new WeakMap<
  Uint32Array,
  { after: Uint32Array; before: Uint32Array; reversed: Uint32Array }
>();

function reversed(before: Uint32Array, after: Uint32Array): { before: Uint32Array; after: Uint32Array } {
  const known = reversals.get(before);
  if (known?.after === after) return { before: known.before, after: known.reversed };
  const entry = { after, before: before.slice().reverse(), reversed: after.slice().reverse() };
  reversals.set(before, entry);
  return { before: entry.before, after: entry.reversed };
}
