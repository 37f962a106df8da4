import { boundedMyers } from '../edit/bounded-myers.js';

/** One region of a line diff: `removed` lines of the old side at `oldIndex` became `added` lines at `newIndex`. */
export interface LineChange {
  oldIndex: number;
  newIndex: number;
  removed: number;
  added: number;
}

/**
 * A line diff (Myers over interned line ids, bounded in cost: see bounded-myers.ts), as
 * change regions: minimal for review-sized sets, near minimal (as git's) for big files
 * with many changes, never one block for the whole file.
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
  const removed = new Uint8Array(a.length);
  const added = new Uint8Array(b.length);
  boundedMyers(a, b, removed, added);
  const changes: LineChange[] = [];
  let x = 0;
  let y = 0;
  while (x < a.length || y < b.length) {
    // One region up to the next kept pair: removed and added lines in any order.
    const change = { oldIndex: start + x, newIndex: start + y, removed: 0, added: 0 };
    for (;;) {
      if (x < a.length && removed[x] === 1) {
        change.removed++;
        x++;
      } else if (y < b.length && added[y] === 1) {
        change.added++;
        y++;
      } else break;
    }
    if (change.removed + change.added > 0) changes.push(change);
    while (x < a.length && y < b.length && removed[x] === 0 && added[y] === 0) {
      x++;
      y++;
    }
  }
  return changes;
}
