/** One region of a line diff: `removed` lines of the old side at `oldIndex` became `added` lines at `newIndex`. */
export interface LineChange {
  oldIndex: number;
  newIndex: number;
  removed: number;
  added: number;
}

/** Edits beyond this make the middle one block (after the common prefix and suffix): memory stays O(D²) small. */
const MAX_EDITS = 2000;

/**
 * A minimal line diff (Myers' O(ND) algorithm over interned line ids), as change
 * regions. Many times faster than a string-token diff for review-sized sets; a
 * pair needing more than MAX_EDITS edits becomes one region between the common
 * prefix and suffix (still exact, only coarser).
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
  const ops = myers(a, b);
  if (!ops) return [{ oldIndex: start, newIndex: start, removed: endOld - start, added: endNew - start }];
  const changes: LineChange[] = [];
  let x = 0;
  let y = 0;
  let open: LineChange | undefined;
  for (const op of ops) {
    if (op === 0) {
      if (open) changes.push(open);
      open = undefined;
      x++;
      y++;
      continue;
    }
    open ??= { oldIndex: start + x, newIndex: start + y, removed: 0, added: 0 };
    if (op === 1) {
      open.removed++;
      x++;
    } else {
      open.added++;
      y++;
    }
  }
  if (open) changes.push(open);
  return changes;
}

/** Edit script (0 keep, 1 delete, 2 insert), or undefined past MAX_EDITS. */
function myers(a: Int32Array, b: Int32Array): Uint8Array | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], depth: number, n: number, m: number): Uint8Array {
  const out: number[] = [];
  let x = n;
  let y = m;
  for (let d = depth; d > 0; d--) {
    const v = trace[d]!;
    // trace[d] holds v[-d-1 .. d+1] as it was before round d.
    const at = (k: number) => v[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push(0);
      x--;
      y--;
    }
    out.push(x === prevX ? 2 : 1);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    out.push(0);
    x--;
    y--;
  }
  return Uint8Array.from(out.reverse());
}
