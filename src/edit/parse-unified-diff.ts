export type HunkLineKind = ' ' | '-' | '+';

export interface HunkLine {
  kind: HunkLineKind;
  text: string;
}

/**
 * Every hunk line of a parsed diff, kept as positions in the diff's text (typed
 * arrays, no object or string per line), so a diff adding a million lines costs
 * no million allocations before anything is known to need them.
 */
class DiffLines {
  /** Char code of each line's kind: ' ', '-', '+', or 0 for context that lost its leading space. */
  private kinds = new Uint8Array(64);
  /** Where each line starts in `text`, its kind character included. */
  private starts = new Int32Array(64);
  /** Where each line ends (its newline excluded). */
  private ends = new Int32Array(64);
  count = 0;

  constructor(readonly text: string) {}

  push(code: number, start: number, end: number): void {
    if (this.count === this.kinds.length) {
      const grow = <T extends Uint8Array | Int32Array>(a: T, b: T): T => {
        b.set(a);
        return b;
      };
      this.kinds = grow(this.kinds, new Uint8Array(this.count * 2));
      this.starts = grow(this.starts, new Int32Array(this.count * 2));
      this.ends = grow(this.ends, new Int32Array(this.count * 2));
    }
    this.kinds[this.count] = code;
    this.starts[this.count] = start;
    this.ends[this.count++] = end;
  }

  kind(i: number): HunkLineKind {
    const code = this.kinds[i]!;
    return code === 43 ? '+' : code === 45 ? '-' : ' ';
  }

  /** Line i's text without its kind character. */
  line(i: number): string {
    return this.text.slice(this.starts[i]! + (this.kinds[i] === 0 ? 0 : 1), this.ends[i]);
  }

  /** Where line i starts in the text (its kind character included) and ends (newline excluded). */
  start(i: number): number {
    return this.starts[i]!;
  }
  end(i: number): number {
    return this.ends[i]!;
  }

  /** Whether line i is written `kind text` (not context that lost its space). */
  prefixed(i: number): boolean {
    return this.kinds[i] !== 0;
  }
}

export interface LooseHunk {
  /** 1-based hunk number in the request. */
  index: number;
  /** Old-side start from the @@ header, if it had a usable one (advisory only). */
  oldStart?: number;
  /** The hunk's lines are lines [first, last) of `diff`. */
  diff: DiffLines;
  first: number;
  last: number;
  /**
   * Which sides' last line a `\ No newline at end of file` marker in this hunk follows:
   * a context line's is both sides', a `-` line's the old side's, a `+` line's the new.
   */
  noFinalNewline?: { old: boolean; new: boolean };
}

/** Lines [from, to) of a hunk (default: all) as objects, for the paths that align them one by one. */
export function hunkLines(hunk: LooseHunk, from = hunk.first, to = hunk.last): HunkLine[] {
  const out: HunkLine[] = [];
  for (let i = from; i < to; i++) out.push({ kind: hunk.diff.kind(i), text: hunk.diff.line(i) });
  return out;
}

/** The old side (context and `-` lines) of lines [from, to) of a hunk. */
export function oldSide(hunk: LooseHunk, from = hunk.first, to = hunk.last): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) if (hunk.diff.kind(i) !== '+') out.push(hunk.diff.line(i));
  return out;
}

const HUNK_HEADER = /^@@\s*(?:-(\d+)(?:,\d+)?)?\s*(?:\+\d+(?:,\d+)?)?\s*@@/;
const FILE_HEADER =
  /^(diff --git |index [0-9a-f]|new file mode|deleted file mode|similarity index|rename (from|to) |old mode|new mode)/;

/**
 * Parses a unified diff the way models actually write them: wrong or missing
 * @@ numbers and counts are ignored (positions are found by content later),
 * blank context lines that lost their leading space are accepted, and
 * `---`/`+++`/`diff`/`index` headers are skipped. A diff without any @@ line is
 * taken as one hunk.
 */
export function parseLooseDiff(diff: string): LooseHunk[] {
  const text = diff.includes('\r\n') ? diff.replaceAll('\r\n', '\n') : diff;
  const lines = new DiffLines(text);
  const hunks: LooseHunk[] = [];
  let current: LooseHunk | undefined;
  const start = (oldStart?: number) => {
    current = {
      index: hunks.length + 1,
      ...(oldStart === undefined ? {} : { oldStart }),
      diff: lines,
      first: lines.count,
      last: lines.count,
    };
    hunks.push(current);
  };
  const push = (code: number, s: number, e: number) => {
    lines.push(code, s, e);
    current!.last = lines.count;
  };
  for (let s = 0; s < text.length; ) {
    let e = text.indexOf('\n', s);
    if (e === -1) e = text.length;
    const next = e + 1;
    const c = text.charCodeAt(s);
    // A hunk line (the bulk of a big diff) is recorded without slicing it: no header starts
    // with `+` or a space, and a `-` line is one unless it is `--- ` followed by `+++ `.
    if (
      current &&
      (c === 43 ||
        c === 32 ||
        (c === 45 && !(text.startsWith('--- ', s) && next < text.length && text.startsWith('+++ ', next))))
    ) {
      push(c, s, e);
      s = next;
      continue;
    }
    const line = text.slice(s, e);
    s = next;
    if (line.startsWith('@@')) {
      const m = HUNK_HEADER.exec(line);
      start(m?.[1] === undefined ? undefined : Number(m[1]));
      continue;
    }
    if (line.startsWith('--- ') && next < text.length && text.startsWith('+++ ', next)) {
      const after = text.indexOf('\n', next);
      s = after === -1 ? text.length : after + 1;
      current = undefined;
      continue;
    }
    if (FILE_HEADER.test(line) && (current === undefined || current.last === current.first)) continue;
    if (line.startsWith('\\')) {
      // "\ No newline at end of file": about the line before it (see LooseHunk.noFinalNewline).
      if (current && current.last > current.first) {
        const kind = lines.kind(current.last - 1);
        current.noFinalNewline ??= { old: false, new: false };
        const marks = current.noFinalNewline;
        if (kind !== '+') marks.old = true;
        if (kind !== '-') marks.new = true;
      }
      continue;
    }
    if (!current) {
      if (line.startsWith('---') || line.startsWith('+++')) continue;
      start();
    }
    const kind = line.charCodeAt(0);
    push(kind === 32 || kind === 45 || kind === 43 ? kind : 0, s - line.length - 1, s - 1);
  }
  return hunks.filter((h) => {
    for (let i = h.first; i < h.last; i++) if (lines.kind(i) !== ' ') return true;
    return false;
  });
}
