import fs from 'node:fs';

/** Levenshtein distance with an early cap; names are short, so O(n·m) is fine. */
function editDistance(a: string, b: string, cap = 64): number {
  if (Math.abs(a.length - b.length) > cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The closest candidates to `wanted`: case-insensitive prefix matches first, then
 * substring matches, then small edit distances. At most `limit` results.
 */
export function closestNames(wanted: string, candidates: readonly string[], limit = 3): string[] {
  const w = wanted.toLowerCase();
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of candidates) {
    const n = name.toLowerCase();
    let score: number;
    if (n === w) score = 0;
    else if (n.startsWith(w) || w.startsWith(n)) score = 1;
    else if (n.includes(w) || w.includes(n)) score = 2;
    else {
      const d = editDistance(w, n);
      if (d > Math.max(2, Math.floor(Math.max(w.length, n.length) / 2))) continue;
      score = 3 + d;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((s) => s.name);
}

/** Entry names of a host directory, or [] when it cannot be listed. Capped for huge dirs. */
export function listDirectoryNames(hostDir: string, max = 5_000): string[] {
  try {
    const dir = fs.opendirSync(hostDir);
    const names: string[] = [];
    try {
      for (let entry = dir.readSync(); entry && names.length < max; entry = dir.readSync()) {
        names.push(entry.name);
      }
    } finally {
      dir.closeSync();
    }
    return names;
  } catch {
    return [];
  }
}
