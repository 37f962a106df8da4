import { finish32, lineHash32 } from './line-hash.js';

/** '#', six hex digits and '|' around each line number. */
const PREFIX_EXTRA = 8;

/** Rendered `LINE#HASH|content` lines, with the full 32-bit hash of each line. */
export interface HashedLines {
  content: string;
  hashes: Uint32Array;
}

/** Renders lines as `LINE#HASH|content`, joined by newlines. */
export function renderHashedLines(lines: readonly string[], startLine: number): string {
  return lines.length === 0 ? '' : renderHashedText(lines.join('\n'), startLine).content;
}

/**
 * Renders the newline-separated lines of `text` (an empty text is one empty line)
 * as `LINE#HASH|content`. Whatever the caller already knows is passed in: the
 * number of lines, whether the text is ASCII, and `known`, the lines' hashes (a
 * LineHashCache hit), which are then not computed again. ASCII text, the common
 * case, is rendered as bytes: no string per line, nothing for the GC.
 */
export function renderHashedText(
  text: string,
  startLine: number,
  options: { lines?: number; ascii?: boolean; known?: Uint32Array } = {},
): HashedLines {
  const lines = options.lines ?? countLines(text);
  const known = options.known?.length === lines ? options.known : undefined;
  const ascii = options.ascii ?? Buffer.byteLength(text, 'utf8') === text.length;
  if (ascii) return renderAscii(text, startLine, lines, known);
  const starts = new Uint32Array(lines);
  for (let k = 1, i = text.indexOf('\n'); k < lines; k++, i = text.indexOf('\n', i + 1)) starts[k] = i + 1;
  return renderWide(text, starts, 0, lines, text.length, startLine, known);
}

function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

/** The decimal digits of consecutive line numbers, counted up in place (no division per line). */
class LineNumber {
  private readonly digits = new Uint8Array(16);
  private first: number;
  constructor(n: number) {
    const text = String(n);
    this.first = 16 - text.length;
    for (let i = 0; i < text.length; i++) this.digits[this.first + i] = text.charCodeAt(i);
  }
  /** Writes the current number at `at`; returns the position after it. */
  write(out: Buffer, at: number): number {
    let p = at;
    for (let i = this.first; i < 16; i++) out[p++] = this.digits[i]!;
    return p;
  }
  /** write() for UTF-16 code units. */
  write16(out: Uint16Array, at: number): number {
    let p = at;
    for (let i = this.first; i < 16; i++) out[p++] = this.digits[i]!;
    return p;
  }
  increment(): void {
    let i = 15;
    while (this.digits[i] === 57) this.digits[i--] = 48; // '9' rolls over to '0'
    if (i < this.first) this.first = i;
    this.digits[i] = this.digits[i] === 0 ? 49 : this.digits[i]! + 1;
  }
}

const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** Writes the top six hex digits of a 32-bit hash at `at` (a table look-up each: no branch per digit). */
function writeHex6(out: Buffer, at: number, hash: number): void {
  out[at] = HEX[hash >>> 28]!;
  out[at + 1] = HEX[(hash >>> 24) & 15]!;
  out[at + 2] = HEX[(hash >>> 20) & 15]!;
  out[at + 3] = HEX[(hash >>> 16) & 15]!;
  out[at + 4] = HEX[(hash >>> 12) & 15]!;
  out[at + 5] = HEX[(hash >>> 8) & 15]!;
}

/** hash32 of the bytes [from, to) once trailing ASCII whitespace is dropped (see lineHash32). */
function hashTrimmed(bytes: Buffer, from: number, to: number): number {
  let end = to;
  while (end > from && (bytes[end - 1] === 32 || (bytes[end - 1]! >= 9 && bytes[end - 1]! <= 13))) end--;
  let a = 0x811c9dc5; // hash32's FNV-1a lane, written out: see line-hash.ts
  for (let i = from; i < end; i++) a = Math.imul(a ^ bytes[i]!, 0x01000193);
  return finish32(a);
}

/** Total number of decimal digits of the line numbers first, first + 1, …, first + count - 1. */
function digitCount(first: number, count: number): number {
  let sum = 0;
  const last = first + count - 1;
  for (let n = first, width = String(first).length; n <= last; width++) {
    const next = Math.min(last + 1, 10 ** width);
    sum += (next - n) * width;
    n = next;
  }
  return sum;
}

/**
 * ASCII text as bytes, in one buffer (see scratch) of at least the output's size:
 * the text is written at its end, and each line is hashed there and moved forward
 * into place behind its prefix (see writeLines).
 */
function renderAscii(text: string, startLine: number, lines: number, known?: Uint32Array): HashedLines {
  const gap = lines * PREFIX_EXTRA + digitCount(startLine, lines);
  const out = scratch(gap + text.length);
  out.write(text, gap, 'latin1');
  const starts = new Uint32Array(lines);
  for (let k = 1, i = text.indexOf('\n'); k < lines; k++, i = text.indexOf('\n', i + 1)) starts[k] = i + 1;
  return writeLines(out, starts, 0, gap, gap + text.length, startLine, lines, known);
}

/**
 * renderHashedText of the lines `first` … `first + lines - 1` of a text, given
 * as its latin1 bytes or as the string itself, with its line starts (`starts[i]`,
 * line i's offset; the page ends at `to`) and the lines' hashes known: the page
 * is copied in once and laid out by its line starts (no line is searched for),
 * from bytes without encoding a string. ASCII unless `wide` (then `source` is
 * the string, laid out as UTF-16).
 */
export function renderHashedPage(
  source: Buffer | string,
  starts: Uint32Array,
  first: number,
  lines: number,
  to: number,
  startLine: number,
  known: Uint32Array,
  wide = false,
): string {
  if (wide) return renderWide(source as string, starts, first, lines, to, startLine, known).content;
  const from = starts[first]!;
  const gap = lines * PREFIX_EXTRA + digitCount(startLine, lines);
  const out = scratch(gap + to - from);
  if (typeof source === 'string') out.write(source.slice(from, to), gap, 'latin1');
  else source.copy(out, gap, from, to);
  return writeLines(out, starts, first, gap - from, gap + to - from, startLine, lines, known).content;
}

/** Pages up to this size are laid out in one reused buffer (no buffer, no GC pressure, per page). */
const SCRATCH_BYTES = 1 << 20;
let shared: Buffer | undefined;

/**
 * A bigger layout buffer is kept this long after its last use: a file read again
 * (an agent re-reading after each edit) reuses its pages instead of faulting in
 * fresh memory for every read, and nothing that big stays held for good.
 */
const LARGE_KEEP_MS = 2_000;
let large: Buffer | undefined;
let largeTimer: NodeJS.Timeout | undefined;

/** A buffer of at least `size` bytes: the shared one for a page, a kept or fresh one for anything bigger. */
function scratch(size: number): Buffer {
  if (size <= SCRATCH_BYTES) {
    shared ??= Buffer.allocUnsafe(SCRATCH_BYTES);
    return shared;
  }
  if (!large || large.length < size) {
    large = undefined; // the old one can go before the new one is allocated
    large = Buffer.allocUnsafe(size);
  }
  clearTimeout(largeTimer);
  largeTimer = setTimeout(() => {
    large = undefined;
  }, LARGE_KEEP_MS);
  largeTimer.unref();
  return large;
}

/**
 * Writes `LINE#HASH|` prefixes and lines into `out`, whose end holds the lines:
 * line k is at starts[first + k] + shift up to the next line's start less its
 * newline (the last one up to `lastEnd`). Each line is hashed in place unless its
 * hash is known, and moved forward behind its prefix (copyWithin, a memmove,
 * unless it is short: a byte loop is twice as slow on long lines). Output never
 * overtakes input: the prefixes written so far are at most the gap between them.
 */
function writeLines(
  out: Buffer,
  starts: Uint32Array,
  first: number,
  shift: number,
  lastEnd: number,
  startLine: number,
  lines: number,
  known?: Uint32Array,
): HashedLines {
  const hashes = known ?? new Uint32Array(lines);
  const number = new LineNumber(startLine);
  let p = 0;
  for (let k = 0; k < lines; k++) {
    const start = starts[first + k]! + shift;
    const end = k + 1 < lines ? starts[first + k + 1]! - 1 + shift : lastEnd;
    if (!known) hashes[k] = hashTrimmed(out, start, end);
    if (k > 0) {
      out[p++] = 10;
      number.increment();
    }
    p = number.write(out, p);
    out[p] = 35; // '#'
    writeHex6(out, p + 1, hashes[k]!);
    out[p + 7] = 124; // '|'
    p += 8;
    if (end - start < 16) for (let i = start; i < end; i++) out[p++] = out[i]!;
    else {
      out.copyWithin(p, start, end);
      p += end - start;
    }
  }
  return { content: out.toString('latin1', 0, p), hashes };
}

/**
 * writeLines for any text: the page as UTF-16 code units (one Buffer, viewed as
 * 16-bit units), laid out the same way, hashed from the string where not known.
 * No string per line; the result is decoded once.
 */
function renderWide(
  text: string,
  starts: Uint32Array,
  first: number,
  lines: number,
  to: number,
  startLine: number,
  known?: Uint32Array,
): HashedLines {
  const hashes = known ?? new Uint32Array(lines);
  const from = starts[first]!;
  const gap = lines * PREFIX_EXTRA + digitCount(startLine, lines);
  const bytes = scratch(2 * (gap + to - from));
  bytes.write(text.slice(from, to), 2 * gap, 'utf16le');
  const out = new Uint16Array(bytes.buffer, bytes.byteOffset, gap + to - from);
  const number = new LineNumber(startLine);
  const shift = gap - from;
  let p = 0;
  for (let k = 0; k < lines; k++) {
    const start = starts[first + k]!;
    const end = k + 1 < lines ? starts[first + k + 1]! - 1 : to;
    if (!known) hashes[k] = lineHash32(text, start, end);
    if (k > 0) {
      out[p++] = 10;
      number.increment();
    }
    p = number.write16(out, p);
    const h = hashes[k]!;
    out[p] = 35; // '#'
    for (let d = 0; d < 6; d++) out[p + 1 + d] = HEX[(h >>> (28 - 4 * d)) & 15]!;
    out[p + 7] = 124; // '|'
    p += 8;
    out.copyWithin(p, start + shift, end + shift);
    p += end - start;
  }
  return { content: bytes.toString('utf16le', 0, 2 * p), hashes };
}
