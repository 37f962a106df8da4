import { hex } from './line-hash.js';
import { keptRun, mapLine } from './map-line.js';
import type { LineIndex } from './resolve-anchor.js';

/** How far a line's nearest distinctive neighbours are looked for, each way. */
const NEIGHBOUR_REACH = 64;
/** A window between those neighbours larger than this is left to the diff (not scanned for copies). */
const WINDOW_SCAN = 4096;

/**
 * Where line `at` of a read is in the current file, or why it cannot be said.
 *
 * The line diff places a line exactly up to equal-cost choices, and those are
 * exactly the cases where the file alone cannot say which line the read showed:
 * a copy of the line (or of its block) added or removed next to it leaves the
 * same bytes whichever copy it was. What tells copies apart is the distinctive
 * lines around them (lines unique in the read), so:
 * - a twin (a line the read holds more than once: `}`, a blank, a repeated
 *   statement) is followed only while the nearest distinctive line on each side
 *   (within reach) is still there: when one of two identical blocks is deleted,
 *   either may be the survivor;
 * - any line is followed only while the stretch between its nearest distinctive
 *   neighbours holds as many copies of it as the read's did.
 * Otherwise it is 'unsure' (refused, never guessed). Lines of other text
 * inserted or removed between them are fine: that diff is forced.
 */
export function followLine(
  read: LineIndex,
  current: LineIndex,
  at: number,
): number | 'changed' | 'unsure' | undefined {
  const mapped = mapLine(read.full, current.full, at);
  if (typeof mapped !== 'number') return mapped;
  if (slides(read.full, current.full, at, mapped)) return 'unsure';
  const twin = isTwin(read, at);
  const edges: ([number, number] | undefined)[] = [];
  for (const step of [-1, 1]) {
    let edge: [number, number] | undefined;
    for (let i = at + step, n = 0; n <= NEIGHBOUR_REACH; i += step, n++) {
      if (i < 0) edge = [-1, -1];
      else if (i >= read.count) edge = [read.count, current.count];
      else if (isTwin(read, i)) continue;
      else {
        const there = mapLine(read.full, current.full, i);
        if (typeof there !== 'number') {
          if (twin) return 'unsure';
        } else edge = [i, there];
      }
      break;
    }
    edges.push(edge);
  }
  const [above, below] = edges;
  if (above && below && below[1] - above[1] <= WINDOW_SCAN) {
    const value = read.full[at]!;
    if (copies(read.full, above[0], below[0], value) !== copies(current.full, above[1], below[1], value))
      return 'unsure';
  }
  return mapped;
}

/** How many of lines (from, to) (both excluded) have this hash. */
function copies(hashes: Uint32Array, from: number, to: number, value: number): number {
  let n = 0;
  for (let i = from + 1; i < to; i++) if (hashes[i] === value) n++;
  return n;
}

function isTwin(index: LineIndex, i: number): boolean {
  return index.candidates(hex(index.full[i]!, 8)).length > 1;
}

/** Past this many equal steps a slide is taken as possible (a long periodic stretch: blocks of twins). */
const SLIDE_CHECK = 4096;

/**
 * Whether lines inserted or removed right next to the kept stretch holding the
 * line could be slid across it at the same cost (the lines they pass are copies
 * of them, as when a block is duplicated among identical blocks): the diff's
 * choice of which copy is new is then arbitrary, and so is where the line is.
 */
function slides(before: Uint32Array, after: Uint32Array, at: number, mapped: number): boolean {
  const run = keptRun(before, after, at);
  if (!run) return false;
  // h[i] === h[i + k] for every i in [lo, hi]: a group of k lines slides over that stretch.
  const periodic = (h: Uint32Array, k: number, lo: number, hi: number) => {
    if (hi - lo > SLIDE_CHECK) return true;
    for (let i = lo; i <= hi; i++) if (h[i] !== h[i + k]) return false;
    return true;
  };
  const { insertedBefore: ib, removedBefore: rb, insertedAfter: ia, removedAfter: ra } = run;
  if (ib > 0 && rb === 0 && periodic(after, ib, run.curFrom - ib, mapped - ib)) return true;
  if (rb > 0 && ib === 0 && periodic(before, rb, run.readFrom - rb, at - rb)) return true;
  if (ia > 0 && ra === 0 && periodic(after, ia, mapped, run.curTo - 1)) return true;
  if (ra > 0 && ia === 0 && periodic(before, ra, at, run.readTo - 1)) return true;
  return false;
}
