import { idDiff } from '../edit/id-diff.js';

/** One region of a line diff: `removed` lines of the old side at `oldIndex` became `added` lines at `newIndex`. */
export interface LineChange {
  oldIndex: number;
  newIndex: number;
  removed: number;
  added: number;
}

/**
 * A line diff over interned line ids (the payload diff's: patience anchors, Myers bounded
 * in cost between them; see id-diff.ts), as change regions: minimal for review-sized
 * sets, near minimal (as git's) for big files with many changes, one block only where
 * the sides share almost no line.
 */
export function diffLineArrays(oldLines: readonly string[], newLines: readonly string[]): LineChange[] {
  let start = 0;
  while (start < oldLines.length && start < newLines.length && oldLines[start] === newLines[start]) start++;
  let endOld = oldLines.length;
  let endNew = newLines.length;
  while (endOld > start && endNew > start && oldLines[endOld - 1] === newLines[endNew - 1]) {
    endOld--;
    endNew--;
  }
  if (start === endOld && start === endNew) return [];
  const ids = new Map<string, number>();
  const intern = (l: string) => {
    const known = ids.get(l);
    if (known !== undefined) return known;
    ids.set(l, ids.size);
    return ids.size - 1;
  };
  const a = Int32Array.from(oldLines.slice(start, endOld), intern);
  const b = Int32Array.from(newLines.slice(start, endNew), intern);
  const changes: LineChange[] = [];
  let x = start;
  let y = start;
  let open: LineChange | undefined;
  // No deadline: a review waits for its hunks (the search is bounded in cost).
  idDiff(a, b, ids.size, Number.POSITIVE_INFINITY, (kind, count) => {
    if (count <= 0) return;
    if (kind === '=') {
      open = undefined;
      x += count;
      y += count;
      return;
    }
    if (!open) {
      open = { oldIndex: x, newIndex: y, removed: 0, added: 0 };
      changes.push(open);
    }
    if (kind === '-') {
      open.removed += count;
      x += count;
    } else {
      open.added += count;
      y += count;
    }
  });
  return changes;
}
