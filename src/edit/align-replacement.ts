import { diffArrays } from 'diff';
import { detectIndentStyle, type IndentStyle } from './indent-style.js';
import { reindent } from './match-cascade.js';
import { movedLineFinder } from './moved-lines.js';
import { leadingWhitespace, lineKey, type MatchLevel } from './normalize-line.js';
import { typographyPlan } from './typography.js';
import { type Carried, carryFileCharacters, hasTypography } from './typography-carry.js';

/** One line of a rebuilt replacement: `from` is the matched file line it keeps, byte for byte. */
export interface RebuiltLine {
  text: string;
  from?: number;
}

/**
 * Line endings for rebuilt lines: a kept line keeps its own ending; a changed line that
 * takes the place of an old one (the n-th new line between two kept lines, for the n-th
 * old line between them) keeps that line's ending, so a file of mixed endings stays as
 * it was around an edit; any other new line takes the file's (`eol`). When the replaced
 * block ended the file without a final newline (`tail` is ''), the new last line has none.
 */
export function rebuiltTerminators(
  lines: readonly RebuiltLine[],
  terms: readonly string[],
  eol: string,
  tail: string,
): string[] {
  const places = placesTaken(lines, terms.length);
  return lines.map((l, i) => {
    const from = l.from ?? places[i];
    const term = from === undefined ? undefined : terms[from];
    return i === lines.length - 1 && tail === '' ? '' : term === undefined || term === '' ? eol : term;
  });
}

/** Old lines each side of a changed line's place compared with it for a carry. */
const CARRY_REACH = 8;
/** Line pairs compared for carries in one block: past them, a changed line is the model's text. */
const CARRY_BUDGET = 1 << 16;

/**
 * For each changed line at the unicode level, the text with the file's characters carried
 * (typography-carry.ts), from the old line it is a changed version of: among the old lines no
 * new line keeps, near its place, the one it keeps the most units of (then the largest share
 * of; a tie goes to the line whose place it takes, else nothing is carried).
 */
function carryTypography(
  needle: readonly string[],
  window: readonly string[],
  replacement: readonly string[],
  adjusted: readonly string[],
  out: readonly RebuiltLine[],
  fresh: readonly number[],
  fix: (line: string) => string,
): Array<string | undefined> {
  const result: Array<string | undefined> = [];
  const typographic = window.map((l, k) => l !== needle[k] && hasTypography(l));
  if (!typographic.includes(true)) return result;
  const keptOld = new Uint8Array(needle.length);
  for (const l of out) if (l.from !== undefined) keptOld[l.from] = 1;
  const places = placesTaken(out, needle.length);
  const afterKept = gapStarts(out);
  let budget = CARRY_BUDGET;
  for (const i of fresh) {
    const near = places[i] ?? afterKept[i]!;
    const lo = Math.max(0, near - CARRY_REACH);
    const hi = Math.min(needle.length, near + CARRY_REACH + 1);
    if (!typographic.slice(lo, hi).includes(true)) continue;
    let best: (Carried & { at: number }) | undefined;
    let tied = false;
    for (let at = lo; at < hi && budget > 0; at++) {
      if (keptOld[at]) continue;
      budget--;
      const c = carryFileCharacters(needle[at]!, window[at]!, replacement[i]!, adjusted[i]!, fix);
      if (!c) continue;
      const order = best ? c.units - best.units || c.kept - best.kept : 1;
      if (order > 0) {
        best = { ...c, at };
        tied = false;
      } else if (order === 0 && c.text !== best!.text) {
        // Equal claims: the line whose place it takes, if it is one of them.
        if (at === places[i]) best = { ...c, at };
        tied = best!.at !== places[i];
      }
    }
    if (best && !tied) result[i] = best.text;
  }
  return result;
}

/** For each new line, the old line after the last kept one before it (where a change there sits). */
function gapStarts(lines: readonly RebuiltLine[]): number[] {
  const out: number[] = [];
  let next = 0;
  for (const l of lines) {
    if (l.from !== undefined) next = Math.max(next, l.from + 1);
    out.push(next);
  }
  return out;
}

/**
 * For each new line that is not a kept one, the old line whose place it takes: the
 * n-th new line between two kept lines for the n-th old line between them (in order;
 * undefined past them). A kept line's entry is undefined (its `from` says it).
 */
function placesTaken(lines: readonly RebuiltLine[], oldCount: number): Array<number | undefined> {
  const out: Array<number | undefined> = [];
  let nextOld = 0; // the old line after the last kept one, in order
  let gapEnd = nextKept(lines, 0, oldCount); // the next kept old line (or the block's end)
  lines.forEach((l, i) => {
    if (l.from !== undefined) {
      if (l.from >= nextOld) {
        nextOld = l.from + 1;
        gapEnd = nextKept(lines, i + 1, oldCount, nextOld);
      }
      out.push(undefined); // kept, or moved or copied (its own line)
    } else out.push(nextOld < gapEnd ? nextOld++ : undefined);
  });
  return out;
}

/** The old index of the next kept line from new line `from` on that is at or after `after` (else `end`). */
function nextKept(lines: readonly RebuiltLine[], from: number, end: number, after = 0): number {
  for (let i = from; i < lines.length; i++) {
    const f = lines[i]!.from;
    if (f !== undefined && f >= after) return f;
  }
  return end;
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

/** Which lines of old [o0, o1) and new [n0, n1) have a possible partner on the other side. */
type Candidates = (
  o0: number,
  o1: number,
  n0: number,
  n1: number,
) => { old: (i: number) => boolean; new: (j: number) => boolean };

/**
 * Pairs the old lines [o0, o1) with new lines [n0, n1) that stay unchanged (a
 * longest common subsequence under `same`), into `pairs` (new index → old index, -1 for none).
 * Lines with no possible partner on the other side cannot be in it and are left
 * out of the diff first, so replacing a block with unrelated text costs nothing.
 * False when the diff ran out of time.
 */
function alignSegment(
  o0: number,
  o1: number,
  n0: number,
  n1: number,
  candidates: Candidates,
  same: (i: number, j: number) => boolean,
  pairs: Int32Array,
): boolean {
  // A common head and tail pair up directly: some longest common subsequence always
  // keeps them (whatever `same` is), and the diff below would only find them slower.
  while (o0 < o1 && n0 < n1 && same(o0, n0)) pairs[n0++] = o0++;
  while (o0 < o1 && n0 < n1 && same(o1 - 1, n1 - 1)) pairs[--n1] = --o1;
  if (o0 === o1 || n0 === n1) return true;
  const keep = candidates(o0, o1, n0, n1);
  const tokens = (side: Token['side'], from: number, to: number, wanted: (i: number) => boolean) => {
    const out: Token[] = [];
    for (let i = from; i < to; i++) if (wanted(i)) out.push({ side, i });
    return out;
  };
  const olds = tokens('old', o0, o1, keep.old);
  const news = tokens('new', n0, n1, keep.new);
  if (olds.length === 0 || news.length === 0) return true;
  const changes = diffArrays<Token>(olds, news, {
    comparator: (a, b) => (a.side === 'old' ? same(a.i, b.i) : same(b.i, a.i)),
    timeout: ALIGN_TIMEOUT_MS,
  });
  if (changes === undefined) return false;
  let oi = 0;
  let nj = 0;
  for (const c of changes) {
    if (c.removed) oi += c.count;
    else if (c.added) nj += c.count;
    else for (let k = 0; k < c.count; k++) pairs[news[nj++]!.i] = olds[oi++]!.i;
  }
  return true;
}

/** A line's indentation; most lines of code start with neither a space nor a tab, and skip the regex. */
function indentOf(line: string): string {
  const c = line.charCodeAt(0);
  return c === 32 || c === 9 ? leadingWhitespace(line) : '';
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
  const anySlipped = slipped.includes(true);
  // Keyed when first compared: most old lines pair with an equal new line and never are.
  const oldKeyOf: Array<string | undefined> = [];
  const oldKey = (i: number): string => {
    if (!slipped[i]) return needle[i]!;
    let key = oldKeyOf[i];
    if (key === undefined) oldKeyOf[i] = key = levelKey(needle[i]!, level);
    return key;
  };
  // New lines' keys only matter against a slipped old line: a request copied exactly
  // (the usual case, and every big insertion) never normalises its new lines.
  const newKeys: Array<string | undefined> = [];
  const newKey = (j: number): string => {
    if (!anySlipped) return replacement[j]!;
    const known = newKeys[j];
    if (known !== undefined) return known;
    const key = levelKey(replacement[j]!, level);
    newKeys[j] = key;
    return key;
  };
  const same = (i: number, j: number) =>
    needle[i] === replacement[j] || (slipped[i]! && oldKey(i) === newKey(j));
  // Which lines could be unchanged at all: one with no possible partner is a change.
  // Asked per segment left after the common head and tail (its lines can only pair
  // among themselves), so a one-line change in a long block looks at one line.
  // Found by looking every new line up among the old ones (the old side is usually
  // the small one), so no set of the new lines is built.
  const candidates: Candidates = (o0, o1, n0, n1) => {
    const oldExact = new Set(needle.slice(o0, o1));
    const oldKeyed = new Set<string>();
    for (let i = o0; i < o1; i++) if (slipped[i]) oldKeyed.add(oldKey(i));
    const exactPartner = new Set<string>();
    const keyedPartner = new Set<string>();
    for (let j = n0; j < n1; j++) {
      if (oldExact.has(replacement[j]!)) exactPartner.add(replacement[j]!);
      if (oldKeyed.size > 0 && oldKeyed.has(newKey(j))) keyedPartner.add(newKey(j));
    }
    return {
      old: (i: number) => exactPartner.has(needle[i]!) || (slipped[i]! && keyedPartner.has(oldKey(i))),
      new: (j: number) => oldExact.has(replacement[j]!) || (oldKeyed.size > 0 && oldKeyed.has(newKey(j))),
    };
  };
  const pairs = new Int32Array(replacement.length).fill(-1);
  // Without an alignment in time, each line that repeats an old one is still found by its text.
  let aligned = true;
  let o = 0;
  let n = 0;
  for (const [fo, fn] of [...fixed, [needle.length, replacement.length] as const]) {
    aligned = alignSegment(o, fo, n, fn, candidates, same, pairs) && aligned;
    if (fo < needle.length) pairs[fn] = fo;
    o = fo + 1;
    n = fn + 1;
  }
  // Indentations compared first: they are almost always the same, and trim may copy the line.
  const reindentNeeded = needle.some((l, i) => indentOf(l) !== indentOf(window[i] ?? '') && l.trim() !== '');
  const adjusted = reindentNeeded ? reindent(replacement, needle, window, fileStyle) : replacement;
  // Asked only when some new line is not paired (most requests pair every kept line).
  let moved: ((line: string, key: string) => number | undefined) | undefined;
  const movedFrom = (line: string, j: number) => {
    if (!moved) {
      let unpaired = 0;
      for (let k = 0; k < pairs.length; k++) if (pairs[k]! < 0) unpaired++;
      moved = movedLineFinder(needle, window, slipped, oldKey, unpaired);
    }
    return moved(line, newKey(j));
  };
  const freshIdx: number[] = [];
  let unclear = false;
  let everywhere: ReturnType<Candidates> | undefined;
  const out: RebuiltLine[] = replacement.map((line, j) => {
    const kept = pairs[j]! >= 0 ? pairs[j]! : movedFrom(line, j);
    if (kept !== undefined) return { text: window[kept]!, from: kept };
    // Unaligned, a line equal to old lines with different file texts cannot be placed.
    if (!aligned) {
      everywhere ??= candidates(0, needle.length, 0, replacement.length);
      if (everywhere.new(j)) unclear = true;
    }
    freshIdx.push(j);
    return { text: adjusted[j]! };
  });
  if (unclear) {
    return {
      ok: false,
      code: 'invalid_argument',
      message:
        'old and new text are too large and too different to tell which lines stay unchanged. Nothing was changed: split the edit into smaller ones.',
    };
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
    // A changed line keeps the file's characters where the model left it as it was.
    const carried = carryTypography(needle, window, replacement, adjusted, out, freshIdx, plan.fix);
    for (const i of freshIdx) out[i] = { text: carried[i] ?? plan.fix(out[i]!.text) };
  }
  return { ok: true, lines: out };
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
