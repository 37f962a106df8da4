import { hex } from './line-hash.js';
import { mapLine } from './map-line.js';
import type { LineIndex } from './resolve-anchor.js';

/** How far a twin's nearest distinctive neighbours are looked for, each way. */
const NEIGHBOUR_REACH = 64;

/**
 * Where line `at` of a read is in the current file, or why it cannot be said.
 * A line unique in the read is where the line diff puts it. A twin (a line the
 * read holds more than once: `}`, a blank, a repeated statement) is placed by the
 * diff only up to equal-cost choices: when one of two identical blocks was
 * deleted, the diff may keep either, and the surviving block's lines may be
 * mapped from the deleted one's. What tells the blocks apart is their distinctive
 * lines, so a twin is followed only while the nearest line unique in the read on
 * each side (within reach) is still there; otherwise it is 'unsure' (refused,
 * never guessed). Lines inserted or removed between them are fine: that diff is
 * forced.
 */
export function followLine(
  read: LineIndex,
  current: LineIndex,
  at: number,
): number | 'changed' | 'unsure' | undefined {
  const mapped = mapLine(read.full, current.full, at);
  if (typeof mapped !== 'number' || !isTwin(read, at)) return mapped;
  for (const step of [-1, 1]) {
    for (let i = at + step, n = 0; i >= 0 && i < read.count && n < NEIGHBOUR_REACH; i += step, n++) {
      if (isTwin(read, i)) continue;
      if (typeof mapLine(read.full, current.full, i) !== 'number') return 'unsure';
      break;
    }
  }
  return mapped;
}

function isTwin(index: LineIndex, i: number): boolean {
  return index.candidates(hex(index.full[i]!, 8)).length > 1;
}
