import type { RunKind } from './id-diff.js';

const KINDS: readonly RunKind[] = ['=', '-', '+'];

/**
 * An edit script: runs of lines kept (`=`), removed from the old side (`-`) or
 * added from the new (`+`), in order, a run merged into the one before when of
 * the same kind. Held in two typed arrays: a replace_all of a million lines makes
 * two million runs, which as objects took more memory than the file.
 */
export class RunList {
  private kinds: Uint8Array;
  /** Line counts: a text has fewer than 2^32 lines (a string holds fewer characters). */
  private counts: Uint32Array;
  private size = 0;

  /** `expected`: about how many runs will be added (the arrays grow past it by doubling). */
  constructor(expected = 64) {
    this.kinds = new Uint8Array(Math.max(16, expected));
    this.counts = new Uint32Array(Math.max(16, expected));
  }

  get length(): number {
    return this.size;
  }

  add(kind: RunKind, count: number): void {
    if (count <= 0) return;
    const code = KINDS.indexOf(kind);
    if (this.size > 0 && this.kinds[this.size - 1] === code) {
      this.counts[this.size - 1]! += count;
      return;
    }
    if (this.size === this.kinds.length) {
      const kinds = new Uint8Array(this.size * 2);
      kinds.set(this.kinds);
      const counts = new Uint32Array(this.size * 2);
      counts.set(this.counts);
      this.kinds = kinds;
      this.counts = counts;
    }
    this.kinds[this.size] = code;
    this.counts[this.size] = count;
    this.size++;
  }

  kind(i: number): RunKind {
    return KINDS[this.kinds[i]!]!;
  }

  count(i: number): number {
    return this.counts[i]!;
  }

  /** Lines of `kind` in all runs. */
  total(kind: RunKind): number {
    let n = 0;
    for (let i = 0; i < this.size; i++) if (this.kind(i) === kind) n += this.counts[i]!;
    return n;
  }
}
