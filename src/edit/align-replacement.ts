import { diffArrays } from 'diff';
import { detectIndentStyle, type IndentStyle } from './indent-style.js';
import { reindent } from './match-cascade.js';
import { leadingWhitespace, lineKey, type MatchLevel } from './normalize-line.js';
import { typographyPlan } from './typography.js';

/** One line of a rebuilt replacement: `from` is the matched file line it keeps, byte for byte. */
export interface RebuiltLine {
  text: string;
  from?: number;
}

export type RebuildResult =
  | { ok: true; lines: RebuiltLine[] }
  | { ok: false; code: 'invalid_argument'; message: string };

/** Aligning old and new sides is bounded: requests are small, but a huge one must not stall a call. */
const ALIGN_TIMEOUT_MS = 1_000;

/**
 * The comparison of a request line at a level, indentation included: a line the
 * model re-indents on purpose is a change, whatever the level ignored to match.
 */
function levelKey(line: string, level: MatchLevel): string {
  if (level === 'exact' || level === 'trailing_whitespace') return lineKey(line, level);
  return leadingWhitespace(line) + lineKey(line, level);
}

type Token = { side: 'old' | 'new'; i: number };
type Part = { kind: 'same' | 'added' | 'removed'; count: number };

/** Aligns old lines [o0, o1) with new lines [n0, n1); undefined when the diff ran out of time. */
function alignSegment(
  o0: number,
  o1: number,
  n0: number,
  n1: number,
  same: (i: number, j: number) => boolean,
): Part[] | undefined {
  if (o1 === o0 || n1 === n0) {
    return [
      ...(o1 > o0 ? [{ kind: 'removed' as const, count: o1 - o0 }] : []),
      ...(n1 > n0 ? [{ kind: 'added' as const, count: n1 - n0 }] : []),
    ];
  }
  const tokens = (side: Token['side'], from: number, to: number) =>
    Array.from({ length: to - from }, (_, k): Token => ({ side, i: from + k }));
  const changes = diffArrays<Token>(tokens('old', o0, o1), tokens('new', n0, n1), {
    comparator: (a, b) => (a.side === 'old' ? same(a.i, b.i) : same(b.i, a.i)),
    timeout: ALIGN_TIMEOUT_MS,
  });
  return changes?.map((c) => ({
    kind: c.added ? 'added' : c.removed ? 'removed' : 'same',
    count: c.count,
  }));
}

/**
 * Rebuilds what replaces a matched block. `needle` (the request's old lines) was
 * matched line by line to `window` (the file's lines) at `level`; `replacement`
 * is the request's new lines. Old and new are aligned line by line; every new
 * line that corresponds to an unchanged old line is the FILE's line, byte for
 * byte (its trailing whitespace, indentation, quotes). A pair counts as
 * unchanged when the two request lines are equal, or — when the model's copy of
 * that old line was inexact — equal under the level's normalisation (the same
 * slip made twice, or made once). Only added or changed lines take the request's
 * text: re-indented to the file when the match needed it, with typographic
 * characters the request introduced written in the file's form. A line the
 * request moves (or copies) keeps the file's bytes too.
 */
export function rebuildReplacement(
  needle: readonly string[],
  window: readonly string[],
  replacement: readonly string[],
  level: MatchLevel,
  /** Pairs (old index, new index) known to be the same line, ascending (a diff's context lines). */
  fixed: ReadonlyArray<readonly [number, number]> = [],
  /** The file's indentation style, asked only when the matched lines cannot tell it. */
  fileStyle: () => IndentStyle | undefined = () => undefined,
): RebuildResult {
  const slipped = needle.map((l, i) => l !== window[i]);
  const oldKeys = needle.map((l) => levelKey(l, level));
  const newKeys = replacement.map((l) => levelKey(l, level));
  const same = (i: number, j: number) =>
    needle[i] === replacement[j] || (slipped[i]! && oldKeys[i] === newKeys[j]);
  const parts: Part[] = [];
  let o = 0;
  let n = 0;
  for (const [fo, fn] of [...fixed, [needle.length, replacement.length] as const]) {
    const segment = alignSegment(o, fo, n, fn, same);
    if (segment === undefined) {
      return {
        ok: false,
        code: 'invalid_argument',
        message:
          'old and new text are too large and too different to tell which lines stay unchanged. Nothing was changed: split the edit into smaller ones.',
      };
    }
    parts.push(...segment);
    if (fo < needle.length) parts.push({ kind: 'same', count: 1 });
    o = fo + 1;
    n = fn + 1;
  }
  const reindentNeeded = needle.some(
    (l, i) => l.trim() !== '' && leadingWhitespace(l) !== leadingWhitespace(window[i] ?? ''),
  );
  const adjusted = reindentNeeded ? reindent(replacement, needle, window, fileStyle) : [...replacement];
  const moved = new MovedLines(needle, window, slipped, oldKeys);
  const freshIdx: number[] = [];
  const out: RebuiltLine[] = [];
  let oi = 0;
  let nj = 0;
  for (const part of parts) {
    if (part.kind === 'removed') oi += part.count;
    else if (part.kind === 'added') {
      for (let k = 0; k < part.count; k++, nj++) {
        const kept = moved.find(replacement[nj]!, newKeys[nj]!);
        if (kept === undefined) {
          freshIdx.push(out.length);
          out.push({ text: adjusted[nj]! });
        } else out.push({ text: window[kept]!, from: kept });
      }
    } else {
      for (let k = 0; k < part.count; k++, oi++, nj++) out.push({ text: window[oi]!, from: oi });
    }
  }
  if (level === 'unicode' && freshIdx.length > 0) {
    const plan = typographyPlan(
      needle,
      window,
      freshIdx.map((i) => out[i]!.text),
    );
    if (!plan.ok) {
      return {
        ok: false,
        code: 'invalid_argument',
        message: `old_string matched only with typographic ${plan.className} folded to ASCII, but the matched lines of the file use both forms, so it is unclear which form your new lines mean. Nothing was changed: copy old_string and new_string with the file's exact characters.`,
      };
    }
    for (const i of freshIdx) out[i] = { text: plan.fix(out[i]!.text) };
  }
  return { ok: true, lines: out };
}

/**
 * For each added line: the old line it repeats (a move or a copy), when that names
 * one file text — found through maps, so a long request stays linear.
 */
class MovedLines {
  private readonly exact = new Map<string, number>();
  private readonly normalised = new Map<string, number>();
  constructor(
    needle: readonly string[],
    private readonly window: readonly string[],
    slipped: readonly boolean[],
    oldKeys: readonly string[],
  ) {
    needle.forEach((l, i) => {
      this.add(this.exact, l, i);
      if (slipped[i]) this.add(this.normalised, oldKeys[i]!, i);
    });
  }
  /** -1 marks a key whose old lines have different file texts: ambiguous, not a move. */
  private add(map: Map<string, number>, key: string, i: number): void {
    const seen = map.get(key);
    if (seen === undefined) map.set(key, i);
    else if (seen !== -1 && this.window[seen] !== this.window[i]) map.set(key, -1);
  }
  find(line: string, key: string): number | undefined {
    const a = this.exact.get(line);
    const b = this.normalised.get(key);
    if (a === -1 || b === -1) return undefined;
    if (a !== undefined && b !== undefined && this.window[a] !== this.window[b]) return undefined;
    return a ?? b;
  }
}

/** Lines looked at on each side of a match to learn the file's indentation style. */
const STYLE_SAMPLE = 200;

/**
 * A lazy, memoised guess of the file's indentation style from the lines around
 * text[from, to) — found by scanning for newlines, so nothing is split unless asked.
 */
export function styleNear(text: string, from: number, to: number): () => IndentStyle | undefined {
  let style: IndentStyle | undefined | null = null;
  return () => {
    if (style !== null) return style;
    let lo = from;
    for (let k = 0; k < STYLE_SAMPLE && lo > 0; k++) lo = text.lastIndexOf('\n', lo - 2) + 1;
    let hi = to;
    for (let k = 0; k < STYLE_SAMPLE && hi < text.length; k++) {
      const nl = text.indexOf('\n', hi);
      hi = nl === -1 ? text.length : nl + 1;
    }
    style = detectIndentStyle(text.slice(lo, hi).split('\n'));
    return style;
  };
}
