import { LineTable } from './line-table.js';
import { foldPunctuation } from './normalize-line.js';
import { TYPO_CLASSES } from './typography.js';

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient on character bigrams: 1 = same, 0 = nothing in common. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const A = bigrams(a);
  let overlap = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = A.get(g);
    if (n) {
      overlap++;
      A.set(g, n - 1);
    }
  }
  return (2 * overlap) / (a.length + b.length - 2);
}

export interface ClosestRegion {
  /** 1-based first and last line of the region most like the needle. */
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
}

const normalize = (s: string) => foldPunctuation(s).trim().replace(/\s+/g, ' ');

/** Typographic characters and what they fold to (as normalize folds them), by code unit. */
const FOLDS = new Map<number, string>();
for (const c of TYPO_CLASSES) {
  const one = new RegExp(c.pattern.source);
  for (let code = 0x80; code < 0x3100; code++)
    if (one.test(String.fromCharCode(code))) FOLDS.set(code, c.ascii);
}
/** What `\s` matches, by code unit (a table: a regex per character made non-ASCII text slow to score). */
const SPACES = new Uint8Array(0x10000);
for (const c of [9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff])
  SPACES[c] = 1;
for (let c = 0x2000; c <= 0x200a; c++) SPACES[c] = 1;
const isSpace = (c: number) => SPACES[c] === 1;

/**
 * Scores lines against one anchor string (Dice on bigrams of the normalised
 * line) reading the line's characters in place: the anchor's bigrams are counted
 * once, and a line costs one pass over its characters, no strings.
 */
class AnchorScorer {
  private readonly index = new Map<number, number>();
  /** The same index for ASCII bigrams (both characters below 128), looked up by array: the hot path. */
  private readonly ascii = new Int16Array(128 * 128).fill(-1);
  private readonly base: Int32Array;
  private readonly left: Int32Array;
  private overlap = 0;
  private length = 0;
  private prev = -1;

  constructor(private readonly anchor: string) {
    const counts: number[] = [];
    for (let i = 0; i + 1 < anchor.length; i++) {
      const key = (anchor.charCodeAt(i) << 16) | anchor.charCodeAt(i + 1);
      const at = this.index.get(key);
      if (at === undefined) {
        this.index.set(key, counts.length);
        const p = anchor.charCodeAt(i);
        const c = anchor.charCodeAt(i + 1);
        if (p < 128 && c < 128) this.ascii[p * 128 + c] = counts.length;
        counts.push(1);
      } else counts[at]! += 1;
    }
    this.base = Int32Array.from(counts);
    this.left = new Int32Array(counts.length);
  }

  private emit(c: number): void {
    const p = this.prev;
    if (p !== -1) {
      const at = p < 128 && c < 128 ? this.ascii[p * 128 + c]! : (this.index.get((p << 16) | c) ?? -1);
      if (at !== -1 && this.left[at]! > 0) {
        this.left[at]! -= 1;
        this.overlap++;
      }
    }
    this.prev = c;
    this.length++;
  }

  private space = false;

  /** One character of the line: runs of whitespace count as one space, none at either end. */
  private take(c: number): void {
    if (isSpace(c)) {
      this.space = this.length > 0;
      return;
    }
    if (this.space) this.emit(32);
    this.space = false;
    this.emit(c);
  }

  /** similarity(anchor, normalize(text[start, end))). */
  score(text: string, start: number, end: number): number {
    this.left.set(this.base);
    this.overlap = 0;
    this.length = 0;
    this.prev = -1;
    this.space = false;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      const fold = c > 127 ? FOLDS.get(c) : undefined;
      if (fold === undefined) this.take(c);
      else for (let k = 0; k < fold.length; k++) this.take(fold.charCodeAt(k));
    }
    const a = this.anchor.length;
    if (a < 2 || this.length < 2) return 0;
    return (2 * this.overlap) / (a + this.length - 2);
  }
}

/** Pieces of the anchor looked for, longest first. */
const PIECES = 8;
/** Lines of one piece that are followed: a piece on more lines is common, and only its first lines count. */
const HITS_PER_PIECE = 1024;
/** Characters scored in all, lines holding the most pieces first. */
const SCORED_CHARS = 1 << 22;
/** A word longer than this also gives its two ends as pieces, so one typo inside it still finds it. */
const LONG_WORD = 8;
const END = 5;
const LONG_PIECE = 64;
/** Characters of the anchor's line its pieces are taken from, and that are compared. */
const PIECES_FROM = 1 << 16;

/**
 * What the anchor's line is looked for by: its words (letters, digits, `_`; the
 * normalisation never changes those, so each is in the file as it is in the
 * needle), a long word's two ends, or, for a line of symbols, its runs without
 * whitespace. Longest first: a long piece is the likeliest to be rare.
 */
function piecesOf(whole: string): string[] {
  // Its start will do: a 10 MB line is not split into a million words.
  const line = whole.slice(0, PIECES_FROM);
  const words = [...line.matchAll(/[\p{L}\p{N}_]{3,}/gu)].map((m) => m[0]);
  const pieces = new Set<string>();
  for (const w of words) {
    // A long word is searched by its start (the engine's search for a long needle can crawl over repetitive text).
    pieces.add(w.length > LONG_PIECE ? w.slice(0, LONG_PIECE) : w);
    if (w.length > LONG_WORD) {
      pieces.add(w.slice(0, END));
      pieces.add(w.slice(-END));
    }
  }
  if (pieces.size === 0)
    for (const m of line.matchAll(/\S+/g))
      if (m[0].length >= 2 && !hasFold(m[0])) pieces.add(m[0].slice(0, LONG_PIECE));
  return [...pieces].sort((a, b) => b.length - a.length).slice(0, PIECES);
}

const hasFold = (s: string) => {
  for (let i = 0; i < s.length; i++) if (FOLDS.has(s.charCodeAt(i))) return true;
  return false;
};

/**
 * The lines that hold a piece of the anchor, those holding the most pieces first
 * (then in file order): every line of a rare piece, the first lines of a common
 * one. Found by the engine's own substring search, a few passes over the text at
 * native speed, never one in script over every character.
 */
function candidateLines(table: LineTable, pieces: readonly string[]): number[] {
  const { text } = table;
  const votes = new Map<number, number>();
  for (const piece of pieces) {
    let hits = 0;
    for (let p = text.indexOf(piece); p !== -1 && hits < HITS_PER_PIECE; p = text.indexOf(piece, p + 1)) {
      hits++;
      const line = table.lineAt(p);
      votes.set(line, (votes.get(line) ?? 0) + 1);
      // The rest of this line says nothing new about this piece.
      p = table.offset(line + 1) - 1;
    }
  }
  return [...votes.keys()].sort((a, b) => votes.get(b)! - votes.get(a)! || a - b);
}

/**
 * The region of the file most like `needle`, placed by its most distinctive line
 * (the longest, the anchor): of the lines that share a piece with the anchor
 * (see piecesOf, candidateLines; scored those with most pieces first, up to
 * SCORED_CHARS), the one most like it by Dice similarity of bigrams of the
 * normalised text, the first on a tie. Looking only where a piece
 * is keeps the search a few native substring passes plus a bounded number of
 * lines scored, whatever the file's size; a line like the anchor that shares no
 * word and no long word's end with it is not found (it is not much like it).
 */
export function closestRegion(
  file: LineTable | readonly string[],
  needle: readonly string[],
): ClosestRegion | undefined {
  const table = file instanceof LineTable ? file : new LineTable(`${file.join('\n')}\n`);
  let anchorIndex = 0;
  for (let i = 1; i < needle.length; i++) {
    if (needle[i]!.trim().length > needle[anchorIndex]!.trim().length) anchorIndex = i;
  }
  // A line longer than PIECES_FROM is compared by its start, and so is each candidate.
  const whole = needle[anchorIndex] ?? '';
  const cut = whole.length > PIECES_FROM;
  const anchor = normalize(cut ? whole.slice(0, PIECES_FROM) : whole);
  if (anchor.length < 3) return undefined;
  const scorer = new AnchorScorer(anchor);
  const { text } = table;
  let best = -1;
  let bestScore = 0;
  let budget = SCORED_CHARS;
  for (const i of candidateLines(table, piecesOf(whole))) {
    let start = table.offset(i);
    let end = table.offset(i + 1);
    // Compared without its indentation and trailing whitespace (the normalised text has none).
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    if (cut) end = Math.min(end, start + PIECES_FROM);
    const len = end - start;
    if (len < anchor.length / 3 || len > anchor.length * 3 + 20) continue;
    const score = scorer.score(text, start, end);
    if (score > bestScore || (score === bestScore && i < best)) {
      bestScore = score;
      best = i;
    }
    budget -= len;
    if (budget <= 0) break;
  }
  if (best === -1 || bestScore < 0.5) return undefined;
  const start = Math.max(0, best - anchorIndex);
  const end = Math.min(table.count, start + needle.length);
  const snippet = table
    .split(start, Math.min(end, start + 6))
    .lines.map((l) => (l.length > 120 ? `${l.slice(0, 120)}…` : l))
    .join('\n');
  return { startLine: start + 1, endLine: end, score: bestScore, snippet };
}
