/**
 * A fast, stable 64-bit hash (two independent 32-bit FNV-1a/murmur-mixed lanes) as
 * 16 hex chars. Anchors need stability and spread, not cryptographic strength, and
 * hashing 200,000 lines per read must stay cheap (node:crypto per line is ~20× slower).
 */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35);
  b ^= b >>> 16;
  return hex(a >>> 0, 8) + hex(b >>> 0, 8);
}

/** The murmur finalizer of the first lane: a 32-bit hash as an unsigned number. */
export function finish32(a: number): number {
  let h = a ^ (a >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

// The FNV-1a constants are written out in each hot loop: a module-level const is a
// checked context load there and makes the loop markedly slower.

/** The first lane of hash64 over text[from, to), as a number (no substring is built). */
export function hash32(text: string, from = 0, to = text.length): number {
  let a = 0x811c9dc5;
  for (let i = from; i < to; i++) a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
  return finish32(a);
}

/** hash32 over code units given as bytes (an ASCII text's latin1 bytes): same result, faster loop. */
export function hash32Bytes(bytes: Uint8Array, from: number, to: number): number {
  let a = 0x811c9dc5;
  for (let i = from; i < to; i++) a = Math.imul(a ^ bytes[i]!, 0x01000193);
  return finish32(a);
}

/**
 * lineHash32 of each of `count` lines, line i being text[starts[i], starts[i + 1])
 * with its terminator (trimmed like any trailing whitespace): no line is sliced.
 * `bytes`, when given, are the text's latin1 bytes (ASCII text): same values from
 * a faster loop.
 */
export function lineHashesAt(
  text: string,
  starts: ArrayLike<number>,
  count: number,
  bytes?: Uint8Array,
): Uint32Array {
  const out = new Uint32Array(count);
  if (bytes) {
    // Two lines at a time: each FNV-1a step waits for the one before (a multiply's
    // latency), so two independent chains in one loop run nearly twice as fast.
    let i = 0;
    for (; i + 1 < count; i += 2) {
      const s0 = starts[i]!;
      const s1 = starts[i + 1]!;
      const e0 = trimmedBytesEnd(bytes, s0, s1);
      const e1 = trimmedBytesEnd(bytes, s1, starts[i + 2]!);
      const both = Math.min(e0 - s0, e1 - s1);
      let a = 0x811c9dc5;
      let b = 0x811c9dc5;
      for (let k = 0; k < both; k++) {
        a = Math.imul(a ^ bytes[s0 + k]!, 0x01000193);
        b = Math.imul(b ^ bytes[s1 + k]!, 0x01000193);
      }
      for (let k = s0 + both; k < e0; k++) a = Math.imul(a ^ bytes[k]!, 0x01000193);
      for (let k = s1 + both; k < e1; k++) b = Math.imul(b ^ bytes[k]!, 0x01000193);
      out[i] = finish32(a);
      out[i + 1] = finish32(b);
    }
    if (i < count)
      out[i] = hash32Bytes(bytes, starts[i]!, trimmedBytesEnd(bytes, starts[i]!, starts[i + 1]!));
    return out;
  }
  for (let i = 0; i < count; i++)
    out[i] = hash32(text, starts[i]!, trimmedEnd(text, starts[i]!, starts[i + 1]!));
  return out;
}

/** End of bytes[from, to) once trailing ASCII whitespace is dropped. */
function trimmedBytesEnd(bytes: Uint8Array, from: number, to: number): number {
  let end = to;
  while (end > from && (bytes[end - 1] === 32 || (bytes[end - 1]! >= 9 && bytes[end - 1]! <= 13))) end--;
  return end;
}

/** Whether String#trimEnd removes this code unit (ECMAScript WhiteSpace and LineTerminator). */
export function isTrimmed(c: number): boolean {
  if (c < 0xa0) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** End of text[from, to) once trailing whitespace is dropped, as trimEnd would (without allocating). */
export function trimmedEnd(text: string, from: number, to: number): number {
  let end = to;
  while (end > from && isTrimmed(text.charCodeAt(end - 1))) end--;
  return end;
}

/**
 * Whether two lines are the same line text as anchors see it (trailing whitespace aside):
 * what a line hash stands for, checked for real, since 32-bit hashes of different
 * texts can be equal (and can be made equal on purpose).
 */
export function sameLineText(a: string, b: string): boolean {
  const endA = trimmedEnd(a, 0, a.length);
  return endA === trimmedEnd(b, 0, b.length) && a.startsWith(b.slice(0, endA));
}

/** Hex of the top `length` (≤ 8) hex digits of a 32-bit hash. */
export function hex(hash: number, length: number): string {
  return hash.toString(16).padStart(8, '0').slice(0, length);
}

/** The full 32-bit line hash: its hex prefix is the anchor read_file shows. */
export function lineHash32(line: string, from = 0, to = line.length): number {
  return hash32(line, from, trimmedEnd(line, from, to));
}

/**
 * Line anchors for edit_lines (hash-anchored seed). A line's hash ignores
 * trailing whitespace, so an editor trimming lines does not invalidate anchors.
 */
export function lineHash(line: string, length = 6): string {
  return length <= 8 ? hex(lineHash32(line), length) : hash64(line.trimEnd()).slice(0, length);
}

/** Lines by index: an array, or a table that slices each line only when asked. */
export interface LineSource {
  readonly count: number;
  line(index: number): string;
}

const fromArray = (lines: readonly string[]): LineSource => ({
  count: lines.length,
  line: (i) => lines[i]!,
});

/** Hash of a line together with its previous and next non-empty lines (disambiguates twins). */
export function contextHash(lines: readonly string[] | LineSource, index: number, length = 8): string {
  const source = Array.isArray(lines) ? fromArray(lines) : (lines as LineSource);
  let prev = '';
  for (let i = index - 1; i >= 0; i--) {
    const line = source.line(i);
    if (line.trim() !== '') {
      prev = line.trimEnd();
      break;
    }
  }
  let next = '';
  for (let i = index + 1; i < source.count; i++) {
    const line = source.line(i);
    if (line.trim() !== '') {
      next = line.trimEnd();
      break;
    }
  }
  return hash64(`${prev}\u0000${source.line(index).trimEnd()}\u0000${next}`).slice(0, length);
}

/** Up to this many lines, each context hash walks to its neighbours itself. */
const WALKED = 8;

/**
 * contextHash of each of `indices`, in O(lines + indices): the nearest non-empty line
 * before and after every line found in one pass each way. Walking from each line (as
 * contextHash does) is quadratic where many lines are asked about in a long run of
 * blank lines.
 */
export function contextHashesAt(lines: LineSource, indices: readonly number[], length = 8): string[] {
  if (indices.length <= WALKED) return indices.map((i) => contextHash(lines, i, length));
  const n = lines.count;
  const filled = (i: number) => lines.line(i).trim() !== '';
  const before = new Int32Array(n);
  for (let i = 0, last = -1; i < n; i++) {
    before[i] = last;
    if (filled(i)) last = i;
  }
  const after = new Int32Array(n);
  for (let i = n - 1, last = -1; i >= 0; i--) {
    after[i] = last;
    if (filled(i)) last = i;
  }
  const text = (i: number) => (i === -1 ? '' : lines.line(i).trimEnd());
  return indices.map((i) =>
    hash64(`${text(before[i]!)}\u0000${lines.line(i).trimEnd()}\u0000${text(after[i]!)}`).slice(0, length),
  );
}

/** A line is low-entropy when it has no letters or digits ("}", "", "];"). */
export function isLowEntropy(line: string): boolean {
  return !/[\p{L}\p{N}]/u.test(line);
}
