import type { DiffRow, DiffSegment } from './diff-rows.js';

/** Lines of a big diff drawn at first, and drawn by each "show more": the DOM grows with what is read. */
export const BATCH_LINES = 1000;

/** Lines of the diff (changed or context rows) a drawn prefix leaves out, and how many are +/−. */
export interface NotShown {
  lines: number;
  added: number;
  removed: number;
}

/** A segment to draw, with its index in the whole view (a key that stays put as more is drawn). */
export interface ShownSegment {
  index: number;
  segment: DiffSegment;
}

const isLine = (row: DiffRow) => row.kind === 'add' || row.kind === 'del' || row.kind === 'context';

/**
 * The start of a diff view up to its `limit`-th line (with the hunk headers,
 * notes and collapsed gaps before it), and a count of the lines after it.
 * A view of at most `limit` lines is drawn whole.
 */
export function firstLines(
  segments: DiffSegment[],
  limit: number,
): { shown: ShownSegment[]; notShown: NotShown } {
  const shown: ShownSegment[] = [];
  const notShown: NotShown = { lines: 0, added: 0, removed: 0 };
  let lines = 0;
  segments.forEach((segment, index) => {
    if (segment.kind === 'gap') {
      if (lines < limit) shown.push({ index, segment });
      return;
    }
    let cut = segment.rows.length;
    segment.rows.forEach((row, k) => {
      if (lines >= limit && cut > k) cut = k;
      if (!isLine(row)) return;
      if (k < cut) lines++;
      else {
        notShown.lines++;
        if (row.kind === 'add') notShown.added++;
        if (row.kind === 'del') notShown.removed++;
      }
    });
    if (cut === segment.rows.length) shown.push({ index, segment });
    else if (cut > 0) shown.push({ index, segment: { kind: 'rows', rows: segment.rows.slice(0, cut) } });
  });
  // Nothing left but headers, notes or gaps (no line of the diff): draw them too.
  if (notShown.lines === 0)
    return { shown: segments.map((segment, index) => ({ index, segment })), notShown };
  return { shown, notShown };
}
