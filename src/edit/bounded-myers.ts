import { bogosqrt } from './bogosqrt.js';
import { searchedLines } from './searched-lines.js';

/**
 * Myers' diff of two sequences of line ids in linear space, with a bound on its cost:
 * the middle snake is searched from both ends at once and the halves on either side
 * of it are diffed in turn, so memory is two arrays of diagonals, not a path per edit.
 * Minimal Myers costs O(lines × edits), which for long low-entropy texts (repeating
 * blocks, a few distinct lines) is seconds; past a cost bound this search (as git's
 * xdiff does) splits at the furthest-reaching diagonal that ends in a run of equal
 * lines, or failing that the furthest-reaching one, so the result stays exact and
 * close to minimal in O(lines × bound) per split (bound: see costBound).
 *
 * Written here because the libraries at hand (jsdiff's diffArrays, diff-sequences,
 * fast-myers-diff) are minimal only: no cost bound, so the same inputs take seconds
 * or end in a timeout.
 */

/** Searches this far past the bound are not worth it: a split is taken. */
const MIN_BOUND = 256;
/** Equal lines in a row that make a diagonal a good place to split. */
const SNAKE = 20;
/** A split by the heuristic needs this much progress per unit of cost. */
const PROGRESS_PER_COST = 4;
/** Past this cost a split is looked for on runs of equal lines. */
const HEURISTIC_FROM = 256;
/**
 * The search stays minimal past git's bounds while its work (each split's cost × its
 * region's lines, about) is within this, in all: git's heuristics are for texts where
 * minimal costs seconds, and where it costs a fraction of one the shortest diff is shown
 * (a pure deletion of 1,047 lines from 100k of repeating text: git shows +13 −1,060).
 */
const MINIMAL_WORK = 2 ** 27;

/**
 * The cost past which a split is taken, for a search over `diagonals` (lines of both sides
 * + 3): git's xdiff's (its bogosqrt: 2^(⌊log₄ diagonals⌋ + 1), between √diagonals and twice
 * that), at least MIN_BOUND, so the results match `git diff`'s on the same lines.
 */
export function costBound(diagonals: number): number {
  return Math.max(MIN_BOUND, bogosqrt(diagonals));
}

/**
 * Marks the lines of A and B that are not kept (removed from A, added to B): `removed[i]`
 * and `added[j]` set to 1. `past` is polled between splits with the search steps taken
 * since the last poll (each diagonal extended and each pair of lines compared): when it says true the rest of
 * each region is marked changed as it stands (exact still, not minimal).
 */
export function boundedMyers(
  A: Int32Array,
  B: Int32Array,
  removed: Uint8Array,
  added: Uint8Array,
  past: (steps: number) => boolean = () => false,
  /** Two arrays of zeroes, one entry per line id at least, left zeroed (else allocated here). */
  scratch?: [Int32Array, Int32Array],
): void {
  // Lines git's search leaves out (see searchedLines) are marked changed first: a line the
  // other side lacks is changed whatever the diff, which spares the search most of its work
  // where many lines are new. Common lines amid changed ones are left out only where the
  // search can pass its bound: below it the search is minimal, and leaving them out could
  // only lose lines.
  const [keptA, keptB] = searchedLines(
    A,
    B,
    scratch ?? zeroes(A, B),
    A.length + B.length > costBound(A.length + B.length + 3),
  );
  const a = keptA ? A.filter((_, i) => keptA[i] === 1) : A;
  const b = keptB ? B.filter((_, j) => keptB[j] === 1) : B;
  const dropped = new Uint8Array(a.length);
  const droppedB = new Uint8Array(b.length);
  search(a, b, dropped, droppedB, past);
  spread(keptA, dropped, removed);
  spread(keptB, droppedB, added);
}

/** Two arrays of zeroes with an entry for each id in A and B. */
function zeroes(A: Int32Array, B: Int32Array): [Int32Array, Int32Array] {
  let size = 0;
  for (let i = 0; i < A.length; i++) size = Math.max(size, A[i]! + 1);
  for (let j = 0; j < B.length; j++) size = Math.max(size, B[j]! + 1);
  return [new Int32Array(size), new Int32Array(size)];
}

/** Marks of the kept lines (`marks`, one per kept line) written to all lines, the others marked changed. */
function spread(kept: Uint8Array | undefined, marks: Uint8Array, out: Uint8Array): void {
  if (!kept) {
    out.set(marks);
    return;
  }
  let k = 0;
  for (let i = 0; i < out.length; i++) out[i] = kept[i] === 1 ? marks[k++]! : 1;
}

/** The bounded search itself (see boundedMyers), on lines that all occur on both sides. */
function search(
  A: Int32Array,
  B: Int32Array,
  removed: Uint8Array,
  added: Uint8Array,
  past: (steps: number) => boolean,
): void {
  const snake = new MiddleSnake(A, B);
  // Regions left to diff, as a0, a1, b0, b1, minimal (an explicit stack: no recursion depth).
  // A half next to a split the heuristics chose is searched minimally: the search that
  // reached the split bounds its cost.
  const stack: number[] = [0, A.length, 0, B.length, 0];
  while (stack.length > 0) {
    const minimal = stack.pop() === 1;
    let b1 = stack.pop()!;
    let b0 = stack.pop()!;
    let a1 = stack.pop()!;
    let a0 = stack.pop()!;
    while (a0 < a1 && b0 < b1 && A[a0] === B[b0]) {
      a0++;
      b0++;
    }
    while (a0 < a1 && b0 < b1 && A[a1 - 1] === B[b1 - 1]) {
      a1--;
      b1--;
    }
    const at =
      a0 === a1 || b0 === b1 || past(snake.takeSteps()) ? undefined : snake.split(a0, a1, b0, b1, minimal);
    // No split, or one that makes no progress (cannot happen on a trimmed region; guarded
    // so the loop always ends): the region is marked as replaced.
    if (at === undefined || (at.x === a0 && at.y === b0) || (at.x === a1 && at.y === b1)) {
      removed.fill(1, a0, a1);
      added.fill(1, b0, b1);
      continue;
    }
    stack.push(at.x, a1, at.y, b1, at.highMinimal ? 1 : 0, a0, at.x, b0, at.y, at.lowMinimal ? 1 : 0);
  }
}

/** Where a region is split, and whether each half must be searched minimally. */
interface Split {
  x: number;
  y: number;
  lowMinimal: boolean;
  highMinimal: boolean;
}

/**
 * The middle-snake search over one region at a time: the furthest-reaching x on each
 * diagonal k = x - y, forward from the region's start and backward from its end
 * (arrays indexed by k + zero, shared by every region), and the diagonals each covers.
 */
class MiddleSnake {
  private readonly forward: Int32Array;
  private readonly backward: Int32Array;
  private readonly zero: number;
  private readonly bound: number;
  /** Work the search may still spend past git's bounds (see MINIMAL_WORK). */
  private minimalLeft = MINIMAL_WORK;
  /** The cost the last search reached. */
  private cost = 0;
  /** Search steps since takeSteps last read them. */
  private steps = 0;
  private a0 = 0;
  private a1 = 0;
  private b0 = 0;
  private b1 = 0;
  private fMin = 0;
  private fMax = 0;
  private bMin = 0;
  private bMax = 0;

  constructor(
    private readonly A: Int32Array,
    private readonly B: Int32Array,
  ) {
    const diagonals = A.length + B.length + 3;
    this.forward = new Int32Array(2 * diagonals + 1);
    this.backward = new Int32Array(2 * diagonals + 1);
    this.zero = diagonals;
    this.bound = costBound(diagonals);
  }

  /**
   * A point on a shortest (or, past the bound, a good) edit path through A[a0, a1) ×
   * B[b0, b1). The ends are known to differ (trimmed), so the region needs at least two edits.
   */
  /** The search steps taken since the last call (the budget's unit: see WorkBudget). */
  takeSteps(): number {
    const steps = this.steps;
    this.steps = 0;
    return steps;
  }

  split(a0: number, a1: number, b0: number, b1: number, minimal: boolean): Split {
    const lines = a1 - a0 + (b1 - b0);
    const affordable = Math.floor(Math.max(0, this.minimalLeft) / lines);
    // Where it is affordable, a minimal search first (a split on a shortest path); if it
    // does not meet in time, git's search with its heuristics, from the start (the state a
    // longer search reaches makes its heuristic choices worse, not better).
    if (!minimal && affordable > HEURISTIC_FROM) {
      const exact = this.search(a0, a1, b0, b1, true, affordable);
      this.minimalLeft -= this.cost * lines;
      if (exact) return exact;
    }
    const at = this.search(a0, a1, b0, b1, minimal, Number.POSITIVE_INFINITY)!;
    this.minimalLeft -= this.cost * lines;
    return at;
  }

  /**
   * A point on a shortest edit path (`minimal`, up to cost `cap`: else undefined), or past
   * git's bounds a good one.
   */
  private search(
    a0: number,
    a1: number,
    b0: number,
    b1: number,
    minimal: boolean,
    cap: number,
  ): Split | undefined {
    const { A, B, forward, backward, zero } = this;
    Object.assign(this, { a0, a1, b0, b1 });
    const minK = a0 - b1;
    const maxK = a1 - b0;
    const fMid = a0 - b0;
    const bMid = a1 - b1;
    const odd = ((fMid - bMid) & 1) !== 0;
    this.fMin = this.fMax = fMid;
    this.bMin = this.bMax = bMid;
    forward[zero + fMid] = a0;
    backward[zero + bMid] = a1;
    for (let cost = 1; ; cost++) {
      this.cost = cost;
      let gotSnake = false;
      // Forward: widen the diagonals by one each way (within the region), furthest x on each.
      if (this.fMin > minK) forward[zero + --this.fMin - 1] = -1;
      else this.fMin++;
      if (this.fMax < maxK) forward[zero + ++this.fMax + 1] = -1;
      else this.fMax--;
      for (let k = this.fMax; k >= this.fMin; k -= 2) {
        const left = forward[zero + k - 1]!;
        const right = forward[zero + k + 1]!;
        let x = left >= right ? left + 1 : right;
        const start = x;
        let y = x - k;
        while (x < a1 && y < b1 && A[x] === B[y]) {
          x++;
          y++;
        }
        if (x - start > SNAKE) gotSnake = true;
        this.steps += 1 + x - start;
        forward[zero + k] = x;
        if (odd && this.bMin <= k && k <= this.bMax && backward[zero + k]! <= x)
          return { x, y, lowMinimal: true, highMinimal: true };
      }
      // Backward: the same from the region's end, smallest x on each diagonal.
      if (this.bMin > minK) backward[zero + --this.bMin - 1] = 0x7fffffff;
      else this.bMin++;
      if (this.bMax < maxK) backward[zero + ++this.bMax + 1] = 0x7fffffff;
      else this.bMax--;
      for (let k = this.bMax; k >= this.bMin; k -= 2) {
        const left = backward[zero + k - 1]!;
        const right = backward[zero + k + 1]!;
        let x = left < right ? left : right - 1;
        const start = x;
        let y = x - k;
        while (x > a0 && y > b0 && A[x - 1] === B[y - 1]) {
          x--;
          y--;
        }
        if (start - x > SNAKE) gotSnake = true;
        this.steps += 1 + start - x;
        backward[zero + k] = x;
        if (!odd && this.fMin <= k && k <= this.fMax && x <= forward[zero + k]!)
          return { x, y, lowMinimal: true, highMinimal: true };
      }
      if (minimal) {
        if (cost >= cap) return undefined;
        continue;
      }
      const found = gotSnake && cost > HEURISTIC_FROM ? this.snakeSplit(cost) : undefined;
      if (found) return found;
      if (cost >= this.bound) return this.furthest();
    }
  }

  /**
   * Past HEURISTIC_FROM: the diagonal that has gone furthest for its cost (at least
   * PROGRESS_PER_COST lines per unit) and ends in SNAKE equal lines, forward or backward.
   */
  private snakeSplit(cost: number): Split | undefined {
    const { A, B, forward, backward, zero, a0, a1, b0, b1 } = this;
    let best = 0;
    let at: Split | undefined;
    for (let k = this.fMax; k >= this.fMin; k -= 2) {
      const x = forward[zero + k]!;
      const y = x - k;
      const progress = x - a0 + (y - b0) - Math.abs(k - (a0 - b0));
      if (progress <= PROGRESS_PER_COST * cost || progress <= best) continue;
      if (x < a0 + SNAKE || x >= a1 || y < b0 + SNAKE || y >= b1) continue;
      let run = 1;
      while (run <= SNAKE && A[x - run] === B[y - run]) run++;
      if (run > SNAKE) {
        best = progress;
        at = { x, y, lowMinimal: true, highMinimal: false };
      }
    }
    if (at) return at;
    for (let k = this.bMax; k >= this.bMin; k -= 2) {
      const x = backward[zero + k]!;
      const y = x - k;
      const progress = a1 - x + (b1 - y) - Math.abs(k - (a1 - b1));
      if (progress <= PROGRESS_PER_COST * cost || progress <= best) continue;
      if (x <= a0 || x > a1 - SNAKE || y <= b0 || y > b1 - SNAKE) continue;
      let run = 0;
      while (run < SNAKE && A[x + run] === B[y + run]) run++;
      if (run === SNAKE) {
        best = progress;
        at = { x, y, lowMinimal: false, highMinimal: true };
      }
    }
    return at;
  }

  /** At the bound: the point furthest along either search, kept on its diagonal inside the region. */
  private furthest(): Split {
    const { forward, backward, zero, a0, a1, b0, b1 } = this;
    let fBest = -1;
    let fx = a0;
    for (let k = this.fMax; k >= this.fMin; k -= 2) {
      let x = Math.min(forward[zero + k]!, a1);
      if (x - k > b1) x = b1 + k;
      if (2 * x - k > fBest) {
        fBest = 2 * x - k;
        fx = x;
      }
    }
    let bBest = Number.MAX_SAFE_INTEGER;
    let bx = a1;
    for (let k = this.bMax; k >= this.bMin; k -= 2) {
      let x = Math.max(a0, backward[zero + k]!);
      if (x - k < b0) x = b0 + k;
      if (2 * x - k < bBest) {
        bBest = 2 * x - k;
        bx = x;
      }
    }
    return a1 + b1 - bBest < fBest - (a0 + b0)
      ? { x: fx, y: fBest - fx, lowMinimal: true, highMinimal: false }
      : { x: bx, y: bBest - bx, lowMinimal: false, highMinimal: true };
  }
}
