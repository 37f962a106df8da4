import { HashGroups } from './hash-groups.js';
import { hash32, type LineSource } from './line-hash.js';
import type { BlockMatch } from './match-cascade.js';
import { lineKey, type MatchLevel } from './normalize-line.js';

/**
 * A file's lines grouped by the hash of their key at each match level (built per
 * level on first use), to find a block of lines without a pass over the file:
 * the block's line whose key hash is on the fewest lines gives the candidate
 * starts, each checked line by line. A patch of thousands of hunks is located in
 * O(file + hunks) instead of O(file × hunks).
 */
export class KeyedLines {
  private readonly groups = new Map<MatchLevel, HashGroups>();

  constructor(private readonly lines: LineSource) {}

  /**
   * Every start s with from ≤ s and s + needle.length ≤ to whose lines have the
   * needle's keys at `level`, ascending, overlapping ones included: the same
   * matches as locateBlock at that level.
   */
  locate(needle: readonly string[], level: MatchLevel, from: number, to: number): BlockMatch[] {
    const k = needle.length;
    if (k === 0 || to - from < k) return [];
    const groups = this.grouped(level);
    const keys = needle.map((l) => lineKey(l, level));
    // The needle line whose key hash the fewest lines share decides the candidates.
    let at = 0;
    let runs = groups.linesWith(hash32(keys[0]!));
    for (let j = 1; j < k && runs.length > 0; j++) {
      const run = groups.linesWith(hash32(keys[j]!));
      if (run.length < runs.length) {
        runs = run;
        at = j;
      }
    }
    const matches: BlockMatch[] = [];
    for (let i = firstAtLeast(runs, from + at); i < runs.length; i++) {
      const start = runs[i]! - at;
      if (start + k > to) break;
      if (this.sameBlock(keys, level, start)) matches.push({ start, end: start + k });
    }
    return matches;
  }

  private sameBlock(keys: readonly string[], level: MatchLevel, start: number): boolean {
    for (let j = 0; j < keys.length; j++)
      if (lineKey(this.lines.line(start + j), level) !== keys[j]) return false;
    return true;
  }

  private grouped(level: MatchLevel): HashGroups {
    let groups = this.groups.get(level);
    if (!groups) {
      const hashes = new Uint32Array(this.lines.count);
      for (let i = 0; i < hashes.length; i++) hashes[i] = hash32(lineKey(this.lines.line(i), level));
      groups = new HashGroups(hashes);
      this.groups.set(level, groups);
    }
    return groups;
  }
}

/** The first position in ascending `run` whose value is ≥ v. */
function firstAtLeast(run: Uint32Array, v: number): number {
  let a = 0;
  let b = run.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (run[m]! < v) a = m + 1;
    else b = m;
  }
  return a;
}
