import { hash32, hash32Bytes, type LineSource, trimmedEnd } from './line-hash.js';
import type { SplitLines } from './text-format.js';

/**
 * Where each line of a text starts, found once into a typed array: a line is
 * sliced out only when asked for, so a 200,000-line file costs no 200,000
 * strings. Lines follow splitLines' rules (terminators '\n', '\r\n' or none).
 */
export class LineTable implements LineSource {
  readonly count: number;
  /** starts[i] is where line i begins; starts[count] is the text's length. Read only. */
  readonly starts: Int32Array;

  constructor(readonly text: string) {
    // One pass; the array is sized from the newline density of the first 4 KiB and grows
    // by doubling. Short lines are found by a character loop (indexOf per line costs more
    // than the line), longer ones by indexOf.
    // The sample is counted with a character loop: indexOf per newline is what a dense
    // text makes slow.
    const sample = Math.min(text.length, 1 << 12);
    let sampled = 0;
    for (let i = 0; i < sample; i++) if (text.charCodeAt(i) === 10) sampled++;
    const expected = sample === 0 ? 0 : Math.ceil(((sampled + 1) * text.length) / sample);
    let starts = new Int32Array(16 + expected + (expected >> 3));
    let n = 1;
    const grow = () => {
      const grown = new Int32Array(starts.length * 2);
      grown.set(starts);
      starts = grown;
    };
    if (sampled * 12 > sample) {
      for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) !== 10) continue;
        if (n + 1 >= starts.length) grow();
        starts[n++] = i + 1;
      }
    } else {
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
        if (n + 1 >= starts.length) grow();
        starts[n++] = i + 1;
      }
    }
    // n - 1 newlines were found; a text not ending with one has one more line.
    this.count = text.length > 0 && !text.endsWith('\n') ? n : n - 1;
    starts[this.count] = text.length;
    this.starts = starts.subarray(0, this.count + 1);
  }

  /** Offset where line `i` starts (`count` gives the text's length). */
  offset(i: number): number {
    return this.starts[i]!;
  }

  /** Offset just past line `i`'s content (its terminator excluded). */
  private contentEnd(i: number): number {
    const next = this.starts[i + 1]!;
    if (this.text.charCodeAt(next - 1) !== 10) return next; // last line, no final newline
    const nl = next - 1;
    return nl > this.starts[i]! && this.text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
  }

  /** Index of the line containing character `offset`. */
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Whether line `i` is exactly `content`, compared in place (no slice). */
  lineEquals(i: number, content: string): boolean {
    const start = this.starts[i]!;
    return this.contentEnd(i) - start === content.length && this.text.startsWith(content, start);
  }

  line(i: number): string {
    return this.text.slice(this.starts[i], this.contentEnd(i));
  }

  terminator(i: number): string {
    return this.text.slice(this.contentEnd(i), this.starts[i + 1]);
  }

  /** Lines [from, to) with their terminators, as splitLines would give them. */
  split(from: number, to: number): SplitLines {
    const lines: string[] = [];
    const terminators: string[] = [];
    for (let i = from; i < to; i++) {
      lines.push(this.line(i));
      terminators.push(this.terminator(i));
    }
    return { lines, terminators };
  }

  /**
   * The 32-bit hash of every line (see lineHash32), hashed in place in the text.
   * ASCII text is hashed from its bytes: identical values, a much faster loop.
   */
  hashes(): Uint32Array {
    const out = new Uint32Array(this.count);
    const { text, starts } = this;
    if (Buffer.byteLength(text, 'utf8') === text.length) {
      const bytes = Buffer.from(text, 'latin1');
      for (let i = 0; i < this.count; i++) {
        const start = starts[i]!;
        let end = starts[i + 1]!;
        while (end > start && (bytes[end - 1] === 32 || (bytes[end - 1]! >= 9 && bytes[end - 1]! <= 13)))
          end--;
        out[i] = hash32Bytes(bytes, start, end);
      }
      return out;
    }
    for (let i = 0; i < this.count; i++)
      out[i] = hash32(text, starts[i]!, trimmedEnd(text, starts[i]!, starts[i + 1]!));
    return out;
  }
}
