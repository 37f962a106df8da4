import { foldPunctuation } from './normalize-line.js';

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient on character bigrams: 1 = same, 0 = nothing in common. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const A = bigrams(a);
  let overlap = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = A.get(g);
    if (n) {
      overlap++;
      A.set(g, n - 1);
    }
  }
  return (2 * overlap) / (a.length + b.length - 2);
}

export interface ClosestRegion {
  /** 1-based first and last line of the region most like the needle. */
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
}

const normalize = (s: string) => foldPunctuation(s).trim().replace(/\s+/g, ' ');

/**
 * The region of the file most like `needle`, found by its most distinctive
 * line (the longest), so it stays fast on very large files. Lines whose length
 * is far from the anchor's are skipped without scoring.
 */
export function closestRegion(
  fileLines: readonly string[],
  needle: readonly string[],
): ClosestRegion | undefined {
  let anchorIndex = 0;
  for (let i = 1; i < needle.length; i++) {
    if (needle[i]!.trim().length > needle[anchorIndex]!.trim().length) anchorIndex = i;
  }
  const anchor = normalize(needle[anchorIndex] ?? '');
  if (anchor.length < 3) return undefined;
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < fileLines.length; i++) {
    const line = fileLines[i]!;
    const len = line.length;
    if (len < anchor.length / 3 || len > anchor.length * 3 + 20) continue;
    const score = similarity(anchor, normalize(line));
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best === -1 || bestScore < 0.5) return undefined;
  const start = Math.max(0, best - anchorIndex);
  const end = Math.min(fileLines.length, start + needle.length);
  const snippet = fileLines
    .slice(start, end)
    .slice(0, 6)
    .map((l) => (l.length > 120 ? `${l.slice(0, 120)}…` : l))
    .join('\n');
  return { startLine: start + 1, endLine: end, score: bestScore, snippet };
}
