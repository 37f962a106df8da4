import { anchoredDiff } from '../edit/anchored-diff.js';
import { LineTable } from '../edit/line-table.js';

/** One region of a line diff: `removed` lines of the old side at `oldIndex` became `added` lines at `newIndex`. */
export interface LineChange {
  oldIndex: number;
  newIndex: number;
  removed: number;
  added: number;
}

/**
 * The line diff of two texts (lines end at `\n`, terminators included), as change
 * regions: the payload diff's own (see anchored-diff.ts), so a review shows the changes
 * an approval would, minimal for review-sized sets and near minimal (as git's) for big
 * files with many changes, in time linear in the texts for the usual edit. No deadline:
 * a review waits for its hunks (every search in it is bounded in cost).
 */
export function diffTexts(oldText: string, newText: string): LineChange[] {
  const { runs } = anchoredDiff(new LineTable(oldText), new LineTable(newText), Number.POSITIVE_INFINITY);
  const changes: LineChange[] = [];
  let x = 0;
  let y = 0;
  let open: LineChange | undefined;
  for (let r = 0; r < runs.length; r++) {
    const kind = runs.kind(r);
    const count = runs.count(r);
    if (kind === '=') {
      open = undefined;
      x += count;
      y += count;
      continue;
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
  }
  return changes;
}
