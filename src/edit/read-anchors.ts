import { finish32, hash32 } from './line-hash.js';

/** Counts of 24-bit anchor prefixes in an open-addressing table (typed arrays: no per-line objects). */
class PrefixCounts {
  private readonly keys: Int32Array;
  private readonly counts: Int32Array;
  private readonly mask: number;
  constructor(n: number) {
    let size = 16;
    while (size < n * 2) size *= 2;
    this.keys = new Int32Array(size);
    this.counts = new Int32Array(size);
    this.mask = size - 1;
  }
  private slot(prefix: number): number {
    const key = prefix + 1; // 0 marks an empty slot
    let s = Math.imul(prefix, 0x9e3779b1) & this.mask;
    while (this.keys[s] !== 0 && this.keys[s] !== key) s = (s + 1) & this.mask;
    this.keys[s] = key;
    return s;
  }
  add(prefix: number): void {
    this.counts[this.slot(prefix)]!++;
  }
  count(prefix: number): number {
    return this.counts[this.slot(prefix)]!;
  }
}

/**
 * Counts of 24-bit prefixes, saturating at 2, as two bits per prefix in a 4 MiB
 * table (a "seen" and a "seen twice" word side by side): for big files, no
 * probing, and a table small enough that random lookups mostly hit the cache.
 */
class DirectCounts {
  private readonly bits = new Int32Array(1 << 20);
  add(prefix: number): void {
    const w = (prefix >>> 5) << 1;
    const bit = 1 << (prefix & 31);
    if (this.bits[w]! & bit) this.bits[w + 1]! |= bit;
    else this.bits[w]! |= bit;
  }
  count(prefix: number): number {
    const w = (prefix >>> 5) << 1;
    const bit = 1 << (prefix & 31);
    return this.bits[w + 1]! & bit ? 2 : this.bits[w]! & bit ? 1 : 0;
  }
}

/** Counts a read only compares with 0, 1 and "more than one". */
type Counts = Pick<PrefixCounts, 'add' | 'count'>;

const countsFor = (n: number, directFrom: number): Counts =>
  n >= directFrom ? new DirectCounts() : new PrefixCounts(n);

// A function declaration and a local copy of EMPTY: a module-level const read in a
// hot loop is a checked context load, which makes the loop markedly slower.
function mix(a: number, b: number): number {
  return finish32(Math.imul(a ^ 0x9e3779b9, 0x01000193) ^ Math.imul(b, 0x5bd1e995));
}
const EMPTY = hash32('');

/**
 * The anchor each line shows in a hashed read, unique in the file whenever the
 * file allows it: a line's own hash when no other line shares its six digits;
 * else its context-augmented hash (with the previous and next non-empty lines,
 * as the hash-anchored spec describes) when that is unique; else a hash of the
 * line with its position (twins with twin surroundings, e.g. a run of "}" lines),
 * which names the line the model was shown in exactly that version of the file.
 * O(n) over the lines' 32-bit hashes, in typed arrays; from `directFrom` lines on
 * the prefixes are counted in a direct table (the hash table's probing cost most).
 */
export function readAnchors(hashes: Uint32Array, directFrom = 1 << 16): Uint32Array {
  const n = hashes.length;
  const empty = EMPTY;
  const plain = countsFor(n, directFrom);
  for (let i = 0; i < n; i++) plain.add(hashes[i]! >>> 8);
  const shown = hashes.slice();
  let twinCount = 0;
  const twins = new Int32Array(n);
  for (let i = 0; i < n; i++) if (plain.count(hashes[i]! >>> 8) > 1) twins[twinCount++] = i;
  if (twinCount === 0) return shown;
  // The nearest non-empty line before and after each twin, found from the twin
  // itself: a walk stops at the first non-empty line or at the twin before (whose
  // answer it reuses), so all walks together cover each line at most once.
  const prev = new Uint32Array(twinCount);
  for (let k = 0; k < twinCount; k++) {
    const stop = k === 0 ? -1 : twins[k - 1]!;
    let j = twins[k]! - 1;
    while (j > stop && hashes[j] === empty) j--;
    prev[k] = j > stop ? hashes[j]! : k === 0 ? empty : hashes[stop] !== empty ? hashes[stop]! : prev[k - 1]!;
  }
  const next = new Uint32Array(twinCount);
  for (let k = twinCount - 1; k >= 0; k--) {
    const stop = k === twinCount - 1 ? n : twins[k + 1]!;
    let j = twins[k]! + 1;
    while (j < stop && hashes[j] === empty) j++;
    next[k] =
      j < stop
        ? hashes[j]!
        : k === twinCount - 1
          ? empty
          : hashes[stop] !== empty
            ? hashes[stop]!
            : next[k + 1]!;
  }
  const context = new Uint32Array(twinCount);
  const contextCounts = countsFor(twinCount, directFrom);
  for (let k = 0; k < twinCount; k++) {
    const i = twins[k]!;
    context[k] = mix(mix(prev[k]!, hashes[i]!), next[k]!);
    contextCounts.add(context[k]! >>> 8);
  }
  for (let k = 0; k < twinCount; k++) {
    const i = twins[k]!;
    const c = context[k]!;
    const unique = contextCounts.count(c >>> 8) === 1 && plain.count(c >>> 8) === 0;
    shown[i] = unique ? c : mix(hashes[i]!, i + 1);
  }
  return shown;
}
