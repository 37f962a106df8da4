/** A window larger than this (cells of the two tables) is not searched: the line is then 'unsure'. */
const MAX_CELLS = 1 << 21;

/**
 * Whether line `k` of `a` is matched to the same line of `b` by every longest
 * common subsequence of the two (equal values are equal lines): the one line
 * `j` it is then matched to, 'deleted' when no longest one matches it, or
 * 'unsure' when some longest one matches it elsewhere or leaves it out while
 * another keeps it, or when one only one line shorter matches it to another
 * copy together with a neighbour it had, or gives the line it matches to another
 * copy of it the same way.
 * Exact: prefix and suffix LCS tables, O(|a| × |b|).
 */
export function forcedMatch(a: Uint32Array, b: Uint32Array, k: number): number | 'deleted' | 'unsure' {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) return 'unsure';
  const w = m + 1;
  // f[i*w + j]: LCS of a[0, i) and b[0, j); g[i*w + j]: LCS of a[i, n) and b[j, m).
  const f = new Int32Array((n + 1) * w);
  const g = new Int32Array((n + 1) * w);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      f[i * w + j] =
        a[i - 1] === b[j - 1]
          ? f[(i - 1) * w + j - 1]! + 1
          : Math.max(f[(i - 1) * w + j]!, f[i * w + j - 1]!);
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      g[i * w + j] =
        a[i] === b[j] ? g[(i + 1) * w + j + 1]! + 1 : Math.max(g[(i + 1) * w + j]!, g[i * w + j + 1]!);
    }
  }
  const total = f[n * w + m]!;
  let match = -1;
  for (let j = 0; j < m; j++) {
    if (a[k] !== b[j]) continue;
    if (f[k * w + j]! + 1 + g[(k + 1) * w + j + 1]! !== total) continue;
    if (match !== -1) return 'unsure';
    match = j;
  }
  // Some longest one leaves line k out: it splits the texts at (k, j) and (k + 1, j).
  let skippable = false;
  for (let j = 0; j <= m && !skippable; j++)
    if (f[k * w + j]! + g[(k + 1) * w + j]! === total) skippable = true;
  if (match === -1) return 'deleted';
  if (skippable) return 'unsure';
  // The longest alignment pairing a[i] with b[j] and a neighbour of each with the other's
  // (-1 when neither neighbour pairs): a rival only with a neighbour kept beside it.
  const at = (i: number, j: number) => i * w + j;
  const withNeighbour = (i: number, j: number) => {
    const above =
      i > 0 && j > 0 && a[i - 1] === b[j - 1] ? f[at(i - 1, j - 1)]! + 2 + g[at(i + 1, j + 1)]! : -1;
    const below =
      i + 1 < n && j + 1 < m && a[i + 1] === b[j + 1] ? f[at(i, j)]! + 2 + g[at(i + 2, j + 2)]! : -1;
    return Math.max(above, below);
  };
  // Nearly as long a one that puts it on another copy with a neighbour of the read beside it: from
  // the bytes alone that history (a copy added, other lines removed) is as plausible, and the
  // original may still be in the file. A copy with none of the line's neighbours is no rival.
  for (let j = 0; j < m; j++)
    if (j !== match && a[k] === b[j] && withNeighbour(k, j) >= total - NEAR) return 'unsure';
  // The same seen from the line it would be edited at: a nearly as long one that gives that line
  // to another copy of the read's (the read's line deleted with its block, a twin block now in its
  // place, a line copied elsewhere: the longest alignment explains the copy by keeping the
  // deleted line and put the edit on the twin).
  for (let i = 0; i < n; i++)
    if (i !== k && a[i] === b[match] && withNeighbour(i, match) >= total - NEAR) return 'unsure';
  return match;
}

/** How much shorter (in lines kept) an alignment placing the line elsewhere may be and still refuse. */
const NEAR = 1;
