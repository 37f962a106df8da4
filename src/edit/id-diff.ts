import { boundedMyers } from './bounded-myers.js';
import { STEPS_PER_MS, type WorkBudget } from './work-budget.js';

/** A run of an edit script: `=` lines kept, `-` removed from the old side, `+` added from the new. */
export type RunKind = '=' | '-' | '+';

/**
 * Receives the edit script run by run. `coarse` marks the two runs of a stretch
 * whose Myers diff ran out of time and is given as one replacement: its lines are
 * not known to be changed, only not matched.
 */
export type EmitRun = (kind: RunKind, count: number, coarse?: boolean) => void;

/** Regions at most this big (old + new lines) go straight to Myers: the unrelated check gains nothing. */
const SMALL = 256;
/** Regions this big on both sides, where under UNRELATED_SHARE of the new lines could be kept, are one replacement. */
const UNRELATED_MIN = 500;
const UNRELATED_SHARE = 0.05;
/** Work (in ms of the budget) a stretch's Myers search may take past the budget (see myers in idDiff), and per line. */
const STRETCH_MIN_MS = 5;
const STRETCH_MS_PER_LINE = 0.001;
/** Anchors nest (a line unique in a region but not in its parent); past this depth, Myers decides. */
const MAX_DEPTH = 64;

/**
 * The line diff of two sequences of line ids (equal lines share an id, ids below
 * `size`): equal ends are trimmed and the rest is diffed by the bounded Myers search
 * (bounded-myers.ts), git's algorithm, so the counts are git's. Sides that share almost no
 * line in order (a file rewritten, its lines reversed) are replaced between the lines
 * unique to both, without the search. A stretch whose search runs past the deadline is
 * emitted as coarse replacements; true when that happened.
 *
 * Not patience style (anchoring on lines unique to both sides first): a unique line
 * moved or a run reversed pins the diff to a path git's does not take (a reversed run
 * of 300 in 1,000 lines of code: 590 changed lines for git's 422).
 */
export function idDiff(
  A: Int32Array,
  B: Int32Array,
  size: number,
  budget: WorkBudget,
  emit: EmitRun,
  /**
   * Patience style: lines unique to both sides anchor the diff first and only the stretches
   * between them are searched (near-linear for thousands of changes, and a unique line is
   * kept wherever it went: what following a line from an old read wants; not git's counts).
   */
  anchored = false,
): boolean {
  const countA = new Int32Array(size);
  const countB = new Int32Array(size);
  const whereB = new Int32Array(size);
  let coarse = false;
  const region = (a0: number, a1: number, b0: number, b1: number, depth = 0): void => {
    let head = 0;
    while (a0 < a1 && b0 < b1 && A[a0] === B[b0]) {
      a0++;
      b0++;
      head++;
    }
    let tail = 0;
    while (a1 > a0 && b1 > b0 && A[a1 - 1] === B[b1 - 1]) {
      a1--;
      b1--;
      tail++;
    }
    emit('=', head);
    if (a0 === a1 || b0 === b1) {
      emit('-', a1 - a0);
      emit('+', b1 - b0);
    } else if (
      a1 - a0 > b1 - b0 ? within(B, b0, b1, A, a0, a1, '-', emit) : within(A, a0, a1, B, b0, b1, '+', emit)
    ) {
      // One side is the other with lines removed (or added): that is the shortest diff.
    } else if (
      a1 - a0 + (b1 - b0) > SMALL &&
      (anchored ? depth < MAX_DEPTH : Math.min(a1 - a0, b1 - b0) >= UNRELATED_MIN)
    ) {
      const { anchors, pairs } = uniqueAnchors(A, B, a0, a1, b0, b1, countA, countB, whereB);
      // At most this many lines can be kept: the anchors' chain of unique lines, and each
      // line of the old side that is not unique on both sides.
      const keepable = anchors.length / 2 + (a1 - a0 - pairs);
      const unrelated = Math.min(a1 - a0, b1 - b0) >= UNRELATED_MIN && keepable < UNRELATED_SHARE * (b1 - b0);
      if (unrelated || (anchored && anchors.length > 0)) {
        // Unrelated sides are replaced between their anchors: Myers would search them for
        // lines × bound to find the few lines more it could keep.
        const between = unrelated ? replaced : region;
        let i0 = a0;
        let j0 = b0;
        for (let k = 0; k < anchors.length; k += 2) {
          const i = anchors[k]!;
          const j = anchors[k + 1]!;
          if (i > i0 || j > j0) between(i0, i, j0, j, depth + 1);
          emit('=', 1);
          i0 = i + 1;
          j0 = j + 1;
        }
        if (i0 < a1 || j0 < b1) between(i0, a1, j0, b1, depth + 1);
      } else myers(a0, a1, b0, b1, anchors.length / 2);
    } else myers(a0, a1, b0, b1, 0);
    emit('=', tail);
  };
  const replaced = (a0: number, a1: number, b0: number, b1: number) => {
    emit('-', a1 - a0);
    emit('+', b1 - b0);
  };
  /** `chain`: lines unique to both sides that can all be kept in order (see uniqueAnchors). */
  const myers = (a0: number, a1: number, b0: number, b1: number, chain: number) => {
    if (mostlyUnrelated(A, B, a0, a1, b0, b1, countA)) {
      emit('-', a1 - a0);
      emit('+', b1 - b0);
      return;
    }
    const removed = new Uint8Array(a1 - a0);
    const added = new Uint8Array(b1 - b0);
    let late = false;
    // Each stretch gets a little work even past the budget, in proportion to its size (the
    // bounded search costs its lines × at most a few thousand): a big file's many small
    // stretches finish, and only one that is truly costly is cut short.
    const allowance = (STRETCH_MIN_MS + (a1 - a0 + (b1 - b0)) * STRETCH_MS_PER_LINE) * STEPS_PER_MS;
    const limit = Math.min(budget.left, 0) - allowance;
    const past = (steps: number) => {
      budget.left -= steps;
      late ||= budget.left < limit;
      return late;
    };
    boundedMyers(A.subarray(a0, a1), B.subarray(b0, b1), removed, added, past, [countA, countB]);
    let kept = 0;
    for (let i = 0; i < removed.length; i++) kept += 1 - removed[i]!;
    // git's search keeps fewer lines than a chain of unique lines shows can be kept (two
    // blocks exchanged far apart: its heuristics remove and re-add everything between them):
    // the diff anchored on that chain is tried, and the shorter of the two is shown.
    if (!anchored && chain > kept) {
      const runs: Parameters<EmitRun>[] = [];
      let anchoredKept = 0;
      const anchoredCoarse = idDiff(
        A.subarray(a0, a1),
        B.subarray(b0, b1),
        size,
        budget,
        (kind, count, late) => {
          runs.push([kind, count, late]);
          if (kind === '=') anchoredKept += count;
        },
        true,
      );
      if (anchoredKept > kept) {
        if (anchoredCoarse) coarse = true;
        for (const run of runs) emit(...run);
        return;
      }
    }
    // Past the budget the rest of the stretch was marked as replaced: exact, not minimal.
    if (late) coarse = true;
    emitMarks(removed, added, emit, late);
  };
  region(0, A.length, 0, B.length);
  return coarse;
}

/**
 * When short[s0, s1) is a subsequence of long[l0, l1) (found greedily in one pass: any
 * such matching keeps every line of the shorter side, so it is a shortest diff), emits it
 * as kept runs and runs of `extra` (the longer side's other lines) and returns true; else
 * emits nothing. A search with heuristics can miss it (git shows a 1% deletion from 100k
 * lines of repeating text as +13 −1,060).
 */
function within(
  short: Int32Array,
  s0: number,
  s1: number,
  long: Int32Array,
  l0: number,
  l1: number,
  extra: '-' | '+',
  emit: EmitRun,
): boolean {
  let j = s0;
  for (let i = l0; i < l1 && j < s1; i++) if (long[i] === short[j]) j++;
  if (j < s1) return false;
  j = s0;
  let i = l0;
  while (i < l1) {
    const from = i;
    while (i < l1 && (j === s1 || long[i] !== short[j])) i++;
    if (i > from) {
      // Runs come as removed then added: the extra lines are one or the other.
      emit('-', extra === '-' ? i - from : 0);
      emit('+', extra === '+' ? i - from : 0);
    }
    const kept = i;
    while (i < l1 && j < s1 && long[i] === short[j]) {
      i++;
      j++;
    }
    emit('=', i - kept);
  }
  return true;
}

/**
 * Lines that occur exactly once in old[a0, a1) and once in new[b0, b1), paired, as
 * the longest chain increasing on both sides (patience sorting, O(k log k)); flat
 * [i0, j0, i1, j1, …]; and how many such pairs there are.
 */
function uniqueAnchors(
  A: Int32Array,
  B: Int32Array,
  a0: number,
  a1: number,
  b0: number,
  b1: number,
  countA: Int32Array,
  countB: Int32Array,
  whereB: Int32Array,
): { anchors: Int32Array; pairs: number } {
  for (let i = a0; i < a1; i++) countA[A[i]!]!++;
  for (let j = b0; j < b1; j++) {
    countB[B[j]!]!++;
    whereB[B[j]!] = j;
  }
  let n = 0;
  for (let i = a0; i < a1; i++) if (countA[A[i]!] === 1 && countB[A[i]!] === 1) n++;
  const is = new Int32Array(n);
  const js = new Int32Array(n);
  n = 0;
  for (let i = a0; i < a1; i++) {
    const id = A[i]!;
    if (countA[id] === 1 && countB[id] === 1) {
      is[n] = i;
      js[n++] = whereB[id]!;
    }
  }
  for (let i = a0; i < a1; i++) countA[A[i]!] = 0;
  for (let j = b0; j < b1; j++) countB[B[j]!] = 0;
  return { anchors: longestIncreasing(is, js), pairs: n };
}

/** The longest chain of pairs (is ascending) whose js ascend too, flat [i, j, …]. */
function longestIncreasing(is: Int32Array, js: Int32Array): Int32Array {
  const tails = new Int32Array(is.length); // index of the smallest tail of a chain of each length
  const back = new Int32Array(is.length);
  let length = 0;
  for (let k = 0; k < is.length; k++) {
    const j = js[k]!;
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (js[tails[mid]!]! < j) lo = mid + 1;
      else hi = mid;
    }
    back[k] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = k;
    if (lo === length) length++;
  }
  const out = new Int32Array(length * 2);
  for (let k = length > 0 ? tails[length - 1]! : -1, at = length - 1; k !== -1; k = back[k]!, at--) {
    out[2 * at] = is[k]!;
    out[2 * at + 1] = js[k]!;
  }
  return out;
}

/** Big regions where under 5% of the new lines could be kept: a line diff would be noise (and slow: Myers is O(lines × changes)). */
function mostlyUnrelated(
  A: Int32Array,
  B: Int32Array,
  a0: number,
  a1: number,
  b0: number,
  b1: number,
  countA: Int32Array,
): boolean {
  if (a1 - a0 < UNRELATED_MIN || b1 - b0 < UNRELATED_MIN) return false;
  for (let i = a0; i < a1; i++) countA[A[i]!]!++;
  // At most this many lines can be kept: each old line pairs with one new line at most
  // (a line that occurs once on one side and 1,000 times on the other keeps one).
  let keepable = 0;
  for (let j = b0; j < b1; j++) {
    if (countA[B[j]!]! > 0) {
      countA[B[j]!]!--;
      keepable++;
    }
  }
  for (let i = a0; i < a1; i++) countA[A[i]!] = 0;
  return keepable < (b1 - b0) * UNRELATED_SHARE;
}

/** The edit script of lines marked removed (old side) and added (new side), as runs. */
function emitMarks(removed: Uint8Array, added: Uint8Array, emit: EmitRun, coarse: boolean): void {
  let i = 0;
  let j = 0;
  while (i < removed.length || j < added.length) {
    const i0 = i;
    while (i < removed.length && removed[i] === 1) i++;
    const j0 = j;
    while (j < added.length && added[j] === 1) j++;
    if (i > i0 || j > j0) {
      emit('-', i - i0, coarse);
      emit('+', j - j0, coarse);
    }
    const kept = i;
    while (i < removed.length && j < added.length && removed[i] === 0 && added[j] === 0) {
      i++;
      j++;
    }
    emit('=', i - kept);
  }
}
