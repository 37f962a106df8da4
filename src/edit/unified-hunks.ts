import type { LinesWithEnds } from './anchored-diff.js';
import type { RunList } from './run-list.js';
import { countOf } from './text-format.js';

/**
 * Lines [from, to) of `t` as unified-diff body lines with `prefix`, without the
 * last newline: one slice and one replace, so a million inserted lines make one
 * string, not a million.
 */
function block(t: LinesWithEnds, from: number, to: number, prefix: string, shown = Infinity): string {
  const count = to - from;
  if (count > shown) {
    const half = Math.floor(shown / 2);
    const what = prefix === '+' ? 'added' : prefix === '-' ? 'removed' : 'unchanged';
    return `${block(t, from, from + half, prefix)}\n${prefix}… ${count - 2 * half} more ${what} lines …\n${block(t, to - half, to, prefix)}`;
  }
  const text = t.text.slice(t.offset(from), t.offset(to));
  const complete = text.endsWith('\n');
  const lines = complete ? text.slice(0, -1) : text;
  const body = prefixLines(lines, prefix);
  return complete ? body : `${body}\n\\ No newline at end of file`;
}

/** Every line of `text` with `prefix` (one character) in front. */
function prefixLines(text: string, prefix: string): string {
  // Big ASCII blocks (the usual big insertion) are copied byte by byte into one buffer:
  // several times faster than any string method on a million lines.
  if (text.length < 1 << 16 || Buffer.byteLength(text, 'utf8') !== text.length)
    return text.includes('\n') ? prefix + text.split('\n').join(`\n${prefix}`) : prefix + text;
  const from = Buffer.from(text, 'latin1');
  let newlines = 0;
  for (let i = from.indexOf(10); i !== -1; i = from.indexOf(10, i + 1)) newlines++;
  const to = Buffer.allocUnsafe(from.length + newlines + 1);
  const p = prefix.charCodeAt(0);
  to[0] = p;
  for (let i = 0, j = 1; i < from.length; i++) {
    const c = from[i]!;
    to[j++] = c;
    if (c === 10) to[j++] = p;
  }
  return to.toString('latin1');
}

/** What a walk over the hunks makes of them: the diff's text, or only its line count. */
interface HunkSink {
  /** Lines [from, to) of `t` with `prefix`, added to the hunk being built. */
  block(t: LinesWithEnds, from: number, to: number, prefix: string, shown: number): void;
  /** The hunk built so far is complete; `header` is its `@@` line. */
  close(header: string): void;
}

/**
 * Walks the hunks of an edit script over `a` → `b` (lines with their terminators),
 * `context` lines around each change; changes closer than twice the context share a
 * hunk. An empty side's start names the line before it (the GNU convention, as
 * jsdiff writes it). Line numbers in the headers start after `firstLine` lines (the
 * texts are slices of bigger ones).
 */
function walkHunks(
  a: LinesWithEnds,
  b: LinesWithEnds,
  runs: RunList,
  context: number,
  firstLine: number,
  shownPerRun: number,
  sink: HunkSink,
): void {
  let ai = 0;
  let bi = 0;
  let hunk: { a0: number; b0: number; oldCount: number; newCount: number } | undefined;
  const close = () => {
    if (!hunk) return;
    const oldStart = firstLine + (hunk.oldCount === 0 ? hunk.a0 : hunk.a0 + 1);
    const newStart = firstLine + (hunk.newCount === 0 ? hunk.b0 : hunk.b0 + 1);
    sink.close(`@@ -${oldStart},${hunk.oldCount} +${newStart},${hunk.newCount} @@\n`);
    hunk = undefined;
  };
  const keep = (from: number, to: number) => {
    if (to > from) sink.block(a, from, to, ' ', Infinity);
    hunk!.oldCount += to - from;
    hunk!.newCount += to - from;
  };
  for (let r = 0; r < runs.length; r++) {
    const kind = runs.kind(r);
    const count = runs.count(r);
    if (kind === '=') {
      if (hunk) {
        const last = r === runs.length - 1;
        if (!last && count <= 2 * context) keep(ai, ai + count);
        else {
          keep(ai, ai + Math.min(context, count));
          close();
        }
      }
      ai += count;
      bi += count;
      continue;
    }
    if (!hunk) {
      const lead = Math.min(context, ai, bi);
      hunk = { a0: ai - lead, b0: bi - lead, oldCount: 0, newCount: 0 };
      keep(ai - lead, ai);
    }
    if (kind === '-') {
      sink.block(a, ai, ai + count, '-', shownPerRun);
      hunk.oldCount += count;
      ai += count;
    } else {
      sink.block(b, bi, bi + count, '+', shownPerRun);
      hunk.newCount += count;
      bi += count;
    }
  }
  close();
}

/**
 * Unified-diff hunks (no file header) from an edit script over `a` → `b`, as
 * walkHunks finds them, as text, and how many lines it has.
 */
export function formatHunks(
  a: LinesWithEnds,
  b: LinesWithEnds,
  runs: RunList,
  context: number,
  firstLine = 0,
  /** A run of more lines than this shows its first and last halves and a count of the rest. */
  shownPerRun = Infinity,
  /** Text before the hunks (a file header), in the same string: a diff of 80 MB is not copied to put it in front. */
  head = '',
): { text: string; lines: number } {
  const out = new Pieces();
  if (head) out.add(head);
  let lines = new Pieces();
  walkHunks(a, b, runs, context, firstLine, shownPerRun, {
    block: (t, from, to, prefix, shown) => lines.line(block(t, from, to, prefix, shown)),
    close: (header) => {
      out.add(header);
      lines.moveTo(out);
      lines = new Pieces();
    },
  });
  return { text: out.text(), lines: out.newlines() };
}

/**
 * The number of lines formatHunks' text has (its newlines), found without
 * building it: a diff nobody reads is counted, not written.
 */
export function countHunkLines(
  a: LinesWithEnds,
  b: LinesWithEnds,
  runs: RunList,
  context: number,
  shownPerRun = Infinity,
  head = '',
): number {
  let lines = countOf(head, '\n');
  walkHunks(a, b, runs, context, 0, shownPerRun, {
    block: (t, from, to, _prefix, shown) => {
      lines += blockLines(t, from, to, shown);
    },
    close: () => {
      lines++;
    },
  });
  return lines;
}

/** The lines `block` makes of lines [from, to) of `t`, with the newline after it. */
function blockLines(t: LinesWithEnds, from: number, to: number, shown = Infinity): number {
  const count = to - from;
  if (count > shown) {
    const half = Math.floor(shown / 2);
    return blockLines(t, from, from + half) + 1 + blockLines(t, to - half, to);
  }
  // An empty block is its prefix alone; a last line with no newline gets the marker line.
  const complete = count > 0 && t.text.charCodeAt(t.offset(to) - 1) === 10;
  return Math.max(count, 1) + (complete ? 0 : 1);
}

/**
 * Text built from many small pieces, joined every PIECES_JOINED of them: the pieces
 * die young. A million-line diff held as a million strings until one join took several
 * times the diff's size and most of its time in garbage collection. The joined parts
 * are then concatenated, not joined: the text is a rope over them (the engine copies
 * it into one string only if a reader needs that), so an 80 MB diff is not held twice
 * while it is built, and an approval nobody looks at never copies it.
 */
class Pieces {
  private parts: string[] = [];
  private readonly joined: string[] = [];
  /** Newlines in each joined part (counted once, when it is joined: the rope is never searched). */
  private readonly joinedLines: number[] = [];
  add(piece: string): void {
    this.parts.push(piece);
    if (this.parts.length === PIECES_JOINED) this.flush();
  }
  /** A piece and a newline after it. */
  line(piece: string): void {
    this.add(piece);
    this.add('\n');
  }
  text(): string {
    this.flush();
    return rope(this.joined, 0, this.joined.length);
  }
  newlines(): number {
    this.flush();
    return this.joinedLines.reduce((n, lines) => n + lines, 0);
  }
  /**
   * Adds this text to `other` as it is held (its joined parts), without joining it whole
   * first: a big part goes into `other`'s rope as it is, a small one is joined there.
   */
  moveTo(other: Pieces): void {
    this.flush();
    for (let i = 0; i < this.joined.length; i++) {
      const part = this.joined[i]!;
      if (part.length < ROPE_PART_CHARS) other.add(part);
      else {
        other.flush();
        other.push(part, this.joinedLines[i]!);
      }
    }
  }
  private flush(): void {
    if (this.parts.length > 0) {
      const part = this.parts.join('');
      this.push(part, countOf(part, '\n'));
    }
    this.parts = [];
  }
  private push(part: string, lines: number): void {
    this.joined.push(part);
    this.joinedLines.push(lines);
  }
}

/** parts[from, to) concatenated as a balanced tree (depth log2 of the parts). */
function rope(parts: readonly string[], from: number, to: number): string {
  if (to - from === 0) return '';
  if (to - from === 1) return parts[from]!;
  const mid = (from + to) >>> 1;
  return rope(parts, from, mid) + rope(parts, mid, to);
}

const PIECES_JOINED = 4096;
/** A joined part this long is kept as a part of the rope (not joined again into a bigger one). */
const ROPE_PART_CHARS = 1 << 16;
