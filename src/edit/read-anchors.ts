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
  /** Whether `prefix` was added (a lookup that, unlike count, adds no slot). */
  has(prefix: number): boolean {
    const key = prefix + 1;
    let s = Math.imul(prefix, 0x9e3779b1) & this.mask;
    while (this.keys[s] !== 0) {
      if (this.keys[s] === key) return this.counts[s]! > 0;
      s = (s + 1) & this.mask;
    }
    return false;
  }
}

/** Prefixes are 24 bits: the top 8 pick a bucket, the low 16 a bit in that bucket's table. */
const BUCKETS = 256;
const BUCKET_WORDS = (1 << 16) >>> 5;

/** Keys (24-bit prefixes) grouped by bucket by a counting sort: each bucket's low 16 bits and original positions. */
interface Bucketed {
  low: Uint16Array;
  at: Uint32Array;
  /** Bucket b holds positions [bounds[b], bounds[b + 1]) of low and at. */
  bounds: Int32Array;
}

/** The 24-bit prefixes (top bits) of 32-bit hashes, bucketed. */
function bucketed(hashes: Uint32Array): Bucketed {
  const bounds = new Int32Array(BUCKETS + 1);
  for (let i = 0; i < hashes.length; i++) bounds[(hashes[i]! >>> 24) + 1]!++;
  for (let b = 0; b < BUCKETS; b++) bounds[b + 1] = bounds[b + 1]! + bounds[b]!;
  const next = bounds.slice(0, BUCKETS);
  const low = new Uint16Array(hashes.length);
  const at = new Uint32Array(hashes.length);
  for (let i = 0; i < hashes.length; i++) {
    const h = hashes[i]!;
    const p = next[h >>> 24]!++;
    low[p] = (h >>> 8) & 0xffff;
    at[p] = i;
  }
  return { low, at, bounds };
}

/** One bucket's low bits low[from, to) marked in `seen` (cleared first), and in `twice` those seen before. */
function countBucket(low: Uint16Array, from: number, to: number, seen: Int32Array, twice: Int32Array): void {
  seen.fill(0);
  twice.fill(0);
  for (let p = from; p < to; p++) {
    const w = low[p]! >>> 5;
    const bit = 1 << (low[p]! & 31);
    if (seen[w]! & bit) twice[w]! |= bit;
    else seen[w]! |= bit;
  }
}

// A function declaration, not a module-level const (see mix below).
function hasBit(table: Int32Array, v: number): boolean {
  return (table[v >>> 5]! & (1 << (v & 31))) !== 0;
}

/**
 * For big inputs, counts of 24-bit prefixes bucket by bucket: a counting sort groups
 * the keys by their top 8 bits, then each bucket is counted in a 16 KiB bit table
 * that stays in cache. Counting in one 4 MiB table in line order was a cache and
 * TLB miss per line (100–300 ms for a million lines on a small VM; this, ~20 ms).
 */
function sharedPrefixes({ low, at, bounds }: Bucketed): Uint8Array {
  const shared = new Uint8Array(low.length);
  const seen = new Int32Array(BUCKET_WORDS);
  const twice = new Int32Array(BUCKET_WORDS);
  for (let b = 0; b < BUCKETS; b++) {
    const from = bounds[b]!;
    const to = bounds[b + 1]!;
    if (from === to) continue;
    countBucket(low, from, to, seen, twice);
    for (let p = from; p < to; p++) if (hasBit(twice, low[p]!)) shared[at[p]!] = 1;
  }
  return shared;
}

/**
 * For each of `probes` (32-bit hashes), whether its prefix occurs exactly once among
 * the probes' and nowhere among `keys`, bucket by bucket like sharedPrefixes.
 */
function uniqueAgainst(keys: Bucketed, probes: Uint32Array): Uint8Array {
  const own = bucketed(probes);
  const unique = new Uint8Array(probes.length);
  const taken = new Int32Array(BUCKET_WORDS);
  const seen = new Int32Array(BUCKET_WORDS);
  const twice = new Int32Array(BUCKET_WORDS);
  for (let b = 0; b < BUCKETS; b++) {
    const from = own.bounds[b]!;
    const to = own.bounds[b + 1]!;
    if (from === to) continue;
    taken.fill(0);
    for (let p = keys.bounds[b]!; p < keys.bounds[b + 1]!; p++)
      taken[keys.low[p]! >>> 5]! |= 1 << (keys.low[p]! & 31);
    countBucket(own.low, from, to, seen, twice);
    for (let p = from; p < to; p++)
      if (!hasBit(twice, own.low[p]!) && !hasBit(taken, own.low[p]!)) unique[own.at[p]!] = 1;
  }
  return unique;
}

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
 * line with its position (twins with twin surroundings, e.g. a run of "}" lines).
 * Both twin anchors mix in the file's version (versionSalt), so each names the line
 * the model was shown in exactly that version of the file;
 * salted (mix with 1, 2, … up to 64) until its prefix is no line's own, no twin's
 * context hash and no earlier position anchor's, so every anchor a read shows is
 * unique in it (unless 24 bits are nearly all taken: then salt 0 stays).
 * O(n) over the lines' 32-bit hashes, in typed arrays; from `directFrom` lines on
 * the prefixes are counted bucket by bucket (see sharedPrefixes), below it in one
 * small hash table.
 */
export function readAnchors(hashes: Uint32Array, directFrom = 1 << 16): Uint32Array {
  const n = hashes.length;
  const empty = EMPTY;
  const counting = n >= directFrom ? bucketCounting(hashes) : tableCounting(hashes);
  const shared = counting.shared;
  const shown = hashes.slice();
  let twinCount = 0;
  for (let i = 0; i < n; i++) twinCount += shared[i]!;
  if (twinCount === 0) return shown;
  const twins = new Int32Array(twinCount);
  for (let i = 0, k = 0; i < n; i++) if (shared[i]) twins[k++] = i;
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
  // Salted by the version: another version of the file never shows this anchor for another twin.
  const version = versionSalt(hashes);
  for (let k = 0; k < twinCount; k++)
    context[k] = mix(mix(mix(prev[k]!, hashes[twins[k]!]!), next[k]!), version);
  const unique = counting.uniqueAmong(context);
  let positioned = 0;
  for (let k = 0; k < twinCount; k++) {
    if (unique[k]) shown[twins[k]!] = context[k]!;
    else positioned++;
  }
  if (positioned === 0) return shown;
  // Position anchors, in line order, each avoiding every prefix a line's own hash, a
  // twin's context hash or an earlier position anchor has: all a read shows stays unique.
  const taken = counting.linePrefixes();
  for (let k = 0; k < twinCount; k++) taken.add(context[k]! >>> 8);
  for (let k = 0; k < twinCount; k++) {
    if (unique[k]) continue;
    const i = twins[k]!;
    shown[i] = positionAnchor(hashes[i]!, i, version, taken);
  }
  return shown;
}

/**
 * A hash of every line hash in order: the file version a read shows. Twins' anchors mix
 * it in, so the same anchor string never names one line in one version and another
 * line in another (a model may hold anchors of both); lines unique in the file show
 * their own hash, the same in every version.
 */
export function versionSalt(hashes: Uint32Array): number {
  let v = 0x811c9dc5 ^ hashes.length;
  for (let i = 0; i < hashes.length; i++) v = Math.imul(v ^ hashes[i]!, 0x01000193);
  return finish32(v);
}

/** Salts tried for a position anchor before the space is taken as full (then salt 0 stays). */
const MAX_SALT = 64;

/** A twin's anchor from its hash and position, salted until its prefix is free (and then taken). */
function positionAnchor(hash: number, i: number, version: number, taken: PrefixSet): number {
  const first = mix(mix(hash, i + 1), version);
  let anchor = first;
  for (let salt = 1; salt <= MAX_SALT && taken.has(anchor >>> 8); salt++) anchor = mix(first, salt);
  if (taken.has(anchor >>> 8)) anchor = first;
  taken.add(anchor >>> 8);
  return anchor;
}

/** A set of 24-bit prefixes. */
interface PrefixSet {
  has(prefix: number): boolean;
  add(prefix: number): void;
}

/** One bit per 24-bit prefix (2 MiB): for big files. */
class PrefixBits implements PrefixSet {
  readonly bits = new Int32Array(1 << 19);
  has(prefix: number): boolean {
    return (this.bits[prefix >>> 5]! & (1 << (prefix & 31))) !== 0;
  }
  add(prefix: number): void {
    this.bits[prefix >>> 5]! |= 1 << (prefix & 31);
  }
}

/** How readAnchors counts prefixes: which lines share theirs, and which context hashes are unique. */
interface Counting {
  /** 1 where the line's prefix is another line's too. */
  shared: Uint8Array;
  /** 1 where a context's prefix is no other context's and no line's. */
  uniqueAmong(contexts: Uint32Array): Uint8Array;
  /** A set holding the prefix of every line's hash (more may be added). */
  linePrefixes(): PrefixSet;
}

function bucketCounting(hashes: Uint32Array): Counting {
  const keys = bucketed(hashes);
  return {
    shared: sharedPrefixes(keys),
    uniqueAmong: (contexts) => uniqueAgainst(keys, contexts),
    linePrefixes() {
      // Set bucket by bucket: each bucket's bits are one 8 KiB stretch of the table.
      const set = new PrefixBits();
      for (let b = 0; b < BUCKETS; b++)
        for (let p = keys.bounds[b]!; p < keys.bounds[b + 1]!; p++) set.add((b << 16) | keys.low[p]!);
      return set;
    },
  };
}

/** For small inputs: one hash table of prefixes (no per-bucket tables to clear). */
function tableCounting(hashes: Uint32Array): Counting {
  const plain = new PrefixCounts(hashes.length);
  for (let i = 0; i < hashes.length; i++) plain.add(hashes[i]! >>> 8);
  const shared = new Uint8Array(hashes.length);
  for (let i = 0; i < hashes.length; i++) shared[i] = plain.count(hashes[i]! >>> 8) > 1 ? 1 : 0;
  return {
    shared,
    uniqueAmong(contexts) {
      const counts = new PrefixCounts(contexts.length);
      for (let k = 0; k < contexts.length; k++) counts.add(contexts[k]! >>> 8);
      const unique = new Uint8Array(contexts.length);
      for (let k = 0; k < contexts.length; k++) {
        const c = contexts[k]! >>> 8;
        unique[k] = counts.count(c) === 1 && !plain.has(c) ? 1 : 0;
      }
      return unique;
    },
    linePrefixes() {
      // The lines' prefixes are in `plain` already; only the few added later need a set.
      const added = new Set<number>();
      return { has: (p) => plain.has(p) || added.has(p), add: (p) => added.add(p) };
    },
  };
}
