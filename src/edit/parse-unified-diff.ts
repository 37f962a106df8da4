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

  constructor(
    readonly text: string,
    /** For each line of the diff as written (by line number), 1 when it ended with CRLF. */
    private readonly crlfByDiffLine?: Uint8Array,
  ) {}

  /** Each hunk line's line number in the diff (for its own line end). */
  private diffLine = new Int32Array(64);

  push(code: number, start: number, end: number, diffLine: number): void {
    if (this.count === this.kinds.length) {
      const grow = <T extends Uint8Array | Int32Array>(a: T, b: T): T => {
        b.set(a);
        return b;
      };
      this.kinds = grow(this.kinds, new Uint8Array(this.count * 2));
      this.starts = grow(this.starts, new Int32Array(this.count * 2));
      this.ends = grow(this.ends, new Int32Array(this.count * 2));
      if (this.crlfByDiffLine) this.diffLine = grow(this.diffLine, new Int32Array(this.count * 2));
    }
    if (this.crlfByDiffLine) this.diffLine[this.count] = diffLine;
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

  /** Whether any line of the diff ended with CRLF. */
  get hasCrlf(): boolean {
    return this.crlfByDiffLine !== undefined;
  }

  /** The line end line i was written with in the diff ('\r\n' or '\n'). */
  ownEnd(i: number): '\n' | '\r\n' {
    return this.crlfByDiffLine?.[this.diffLine[i]!] ? '\r\n' : '\n';
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

const HUNK_HEADER = /^@@\s*(?:-(\d+)(?:,(\d+))?)?\s*(?:\+(\d+)(?:,(\d+))?)?\s*@@/;
const FILE_HEADER =
  /^(diff --git |index [0-9a-f]|new file mode|deleted file mode|similarity index|rename (from|to) |old mode|new mode)/;

/**
 * Parses a unified diff the way models actually write them: wrong or missing
 * @@ numbers and counts are ignored (positions are found by content later),
 * blank context lines that lost their leading space are accepted, and
 * `---`/`+++`/`diff`/`index` headers are skipped. A diff without any @@ line is
 * taken as one hunk. A header's counts are used two ways only, both where a
 * count-blind reading goes wrong: inside a hunk the header says has lines to go,
 * `--- x` then `+++ y` are a removed and an added line (`-- x` becoming `++ y`), not
 * a file header; and blank lines ending a hunk past its counts (a diff followed by
 * an empty line) are not context.
 */
export function parseLooseDiff(diff: string): LooseHunk[] {
  const { text, crlf } = withLfLineEnds(diff);
  const lines = new DiffLines(text, crlf);
  const hunks: LooseHunk[] = [];
  let current: LooseHunk | undefined;
  // Lines the current hunk's header says are still to come on each side (undefined: no counts).
  let oldLeft: number | undefined;
  let newLeft: number | undefined;
  const start = (header?: RegExpExecArray | null) => {
    trimPastCounts();
    const oldStart = header?.[1] === undefined ? undefined : Number(header[1]);
    current = {
      index: hunks.length + 1,
      ...(oldStart === undefined ? {} : { oldStart }),
      diff: lines,
      first: lines.count,
      last: lines.count,
    };
    hunks.push(current);
    const counted = header?.[1] !== undefined && header[3] !== undefined;
    // An omitted count is 1 (`@@ -3 +3 @@`).
    oldLeft = counted ? Number(header[2] ?? 1) : undefined;
    newLeft = counted ? Number(header[4] ?? 1) : undefined;
  };
  // Blank lines past the counts at a hunk's end (nothing after them in it) are not its lines.
  let pastCounts = 0;
  const trimPastCounts = () => {
    if (current && pastCounts > 0) current.last -= pastCounts;
    pastCounts = 0;
  };
  let lineNo = 0;
  const push = (code: number, s: number, e: number) => {
    const blankPast = code === 0 && s === e && oldLeft === 0 && newLeft === 0;
    if (oldLeft !== undefined && code !== 43) oldLeft = Math.max(0, oldLeft - 1);
    if (newLeft !== undefined && code !== 45) newLeft = Math.max(0, newLeft - 1);
    lines.push(code, s, e, lineNo);
    current!.last = lines.count;
    pastCounts = blankPast ? pastCounts + 1 : 0;
  };
  // Inside a hunk with lines to go on both sides, `--- x` + `+++ y` are its lines.
  const fileHeaderAt = (s: number, next: number) =>
    text.startsWith('--- ', s) &&
    next < text.length &&
    text.startsWith('+++ ', next) &&
    !(current && oldLeft !== undefined && oldLeft > 0 && newLeft! > 0);
  for (let s = 0; s < text.length; lineNo++) {
    let e = text.indexOf('\n', s);
    if (e === -1) e = text.length;
    const next = e + 1;
    const c = text.charCodeAt(s);
    // A hunk line (the bulk of a big diff) is recorded without slicing it: no header starts
    // with `+` or a space, and a `-` line is one unless it is `--- ` followed by `+++ `.
    if (current && (c === 43 || c === 32 || (c === 45 && !fileHeaderAt(s, next)))) {
      push(c, s, e);
      s = next;
      continue;
    }
    const line = text.slice(s, e);
    s = next;
    if (line.startsWith('@@')) {
      start(HUNK_HEADER.exec(line));
      continue;
    }
    if (line.startsWith('--- ') && next < text.length && text.startsWith('+++ ', next)) {
      const after = text.indexOf('\n', next);
      s = after === -1 ? text.length : after + 1;
      lineNo++;
      trimPastCounts();
      current = undefined;
      oldLeft = newLeft = undefined;
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
  trimPastCounts();
  return hunks.filter((h) => {
    for (let i = h.first; i < h.last; i++) if (lines.kind(i) !== ' ') return true;
    return false;
  });
}

/**
 * The diff with its CRLF line ends read as LF, and which of its lines ended with CRLF
 * (by line number; none when it has no CR). A line followed by `\ No newline at end of
 * file` has no line end of its own: when the diff's own lines end with LF (the marker
 * line's end says, or for a marker that ends the diff, its hunk header's), a CR before
 * that line's LF is its text (a last line ending with a lone CR) and stays, as GNU patch
 * reads it. The line count is unchanged, so line numbers match the diff as written.
 */
function withLfLineEnds(given: string): { text: string; crlf?: Uint8Array } {
  if (!given.includes('\r\n')) return { text: given };
  let diff = given;
  const crlfLines: number[] = [];
  const keptCr: number[] = [];
  let header: 'lf' | 'crlf' | undefined;
  let lineNo = 0;
  let s = 0;
  for (; s < diff.length; lineNo++) {
    const nl = diff.indexOf('\n', s);
    if (nl === -1) break;
    const crlf = nl > s && diff.charCodeAt(nl - 1) === 13;
    if (diff.startsWith('@@', s)) header = crlf ? 'crlf' : 'lf';
    if (crlf) {
      if (ownCr(diff, nl + 1, header)) keptCr.push(nl - 1);
      else crlfLines.push(lineNo);
    }
    s = nl + 1;
  }
  // A diff of CRLF lines whose last line kept its CR but lost its LF: that CR is the line's end.
  if (s < diff.length && header === 'crlf' && diff.endsWith('\r')) {
    crlfLines.push(lineNo);
    diff = diff.slice(0, -1);
  }
  const crlf = new Uint8Array(lineNo + 1);
  for (const line of crlfLines) crlf[line] = 1;
  if (keptCr.length === 0) return { text: diff.replaceAll('\r\n', '\n'), crlf };
  // Slices between the kept CRs, each with its CRLFs read as LF.
  const parts: string[] = [];
  let from = 0;
  for (const at of keptCr) {
    parts.push(diff.slice(from, at).replaceAll('\r\n', '\n'), '\r');
    from = at + 1;
  }
  parts.push(diff.slice(from).replaceAll('\r\n', '\n'));
  return { text: parts.join(''), crlf };
}

/** Whether the line at `next` is a `\` marker written with LF line ends (see withLfLineEnds). */
function ownCr(diff: string, next: number, header: 'lf' | 'crlf' | undefined): boolean {
  if (diff.charCodeAt(next) !== 92) return false;
  const nl = diff.indexOf('\n', next);
  if (nl === -1) return header === 'lf';
  return diff.charCodeAt(nl - 1) !== 13;
}
