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

const mix = (a: number, b: number) =>
  finish32(Math.imul(a ^ 0x9e3779b9, 0x01000193) ^ Math.imul(b, 0x5bd1e995));
const EMPTY = hash32('');
const prefixOf = (h: number) => h >>> 8; // the six hex digits a read shows

/**
 * The anchor each line shows in a hashed read, unique in the file whenever the
 * file allows it: a line's own hash when no other line shares its six digits;
 * else its context-augmented hash (with the previous and next non-empty lines,
 * as the hash-anchored spec describes) when that is unique; else a hash of the
 * line with its position (twins with twin surroundings, e.g. a run of "}" lines),
 * which names the line the model was shown in exactly that version of the file.
 * O(n) over the lines' 32-bit hashes.
 */
export function readAnchors(hashes: Uint32Array): Uint32Array {
  const n = hashes.length;
  const plain = new PrefixCounts(n);
  for (let i = 0; i < n; i++) plain.add(prefixOf(hashes[i]!));
  const shown = Uint32Array.from(hashes);
  const twins: number[] = [];
  for (let i = 0; i < n; i++) if (plain.count(prefixOf(hashes[i]!)) > 1) twins.push(i);
  if (twins.length === 0) return shown;
  // Hash of the nearest non-empty line after each line (a backward pass).
  const next = new Uint32Array(n);
  for (let i = n - 1, after = EMPTY; i >= 0; i--) {
    next[i] = after;
    if (hashes[i] !== EMPTY) after = hashes[i]!;
  }
  const prev = new Uint32Array(n);
  for (let i = 0, before = EMPTY; i < n; i++) {
    prev[i] = before;
    if (hashes[i] !== EMPTY) before = hashes[i]!;
  }
  const context = new Uint32Array(twins.length);
  const contextCounts = new PrefixCounts(twins.length);
  twins.forEach((i, k) => {
    context[k] = mix(mix(prev[i]!, hashes[i]!), next[i]!);
    contextCounts.add(prefixOf(context[k]!));
  });
  twins.forEach((i, k) => {
    const c = context[k]!;
    const unique = contextCounts.count(prefixOf(c)) === 1 && plain.count(prefixOf(c)) === 0;
    shown[i] = unique ? c : mix(hashes[i]!, i + 1);
  });
  return shown;
}
