import { boundaryAtOrBefore } from '../text/text-slices.js';
import { commonLength } from './common-length.js';

/**
 * A unified diff as an edit tool's result shows it to the model: at most
 * `maxChars` in all, and no line longer than LONG_LINE. The model wrote the
 * change itself, so the result only has to confirm what changed where; echoing a
 * 10 MB line (twice) or a 400,000-line `replace_all` back would flood its context
 * (the person's approval shows the whole diff). A long line keeps its start (the
 * +/- mark and, in edit_lines, its LINE#HASH anchor) and the stretch from where it
 * first differs from the line it replaces to where it last does (both ends shown,
 * the middle left out when long); what is left out is counted in characters.
 */
export function diffForModel(
  diff: string,
  maxChars: number,
  /** Changes after the end of `diff`, left out of it (see boundedUnifiedDiff's upTo). */
  left: { changesLeft?: number; hunkContinues?: boolean } = {},
): string {
  const changesLeft = left.changesLeft ?? 0;
  const cutNote = (used: number, lines: number) => lineCutNote(used, lines, changesLeft, left.hunkContinues);
  if (diff.length <= Math.min(maxChars, LONG_LINE) && changesLeft === 0) return diff;
  const lines = diff.split('\n');
  const total = lines.at(-1) === '' ? lines.length - 1 : lines.length;
  const blocks = longLineBlocks(lines);
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < total; i++) {
    const line = lines[i]!;
    // A long line's partner is looked for only when the line is shown (the cut may come first).
    const place = blocks.get(i);
    const shown = line.length > LONG_LINE ? shortened(line, place && partnerOf(lines, i, place)) : line;
    const next = used + shown.length + 1;
    // The note for the lines after this one must still fit after it.
    const after = i + 1 < total || changesLeft > 0 ? cutNote(next, total - i - 1).length : 0;
    if (next + after > maxChars) {
      out.push(fitted(cutNote(used, total - i), maxChars - used));
      const shown = out.join('\n');
      return shown.slice(0, boundaryAtOrBefore(shown, maxChars));
    }
    out.push(shown);
    used = next;
  }
  if (changesLeft > 0) out.push(moreNote(changesLeft, left.hunkContinues));
  return out.join('\n') + (lines.at(-1) === '' || changesLeft > 0 ? '\n' : '');
}

/** Lines longer than this are shortened. */
const LONG_LINE = 1_000;
/** Characters of a long line kept from its start. */
const HEAD = 120;
/** Characters kept before a line's first difference and after its last. */
const AROUND = 200;
/** A changed stretch up to this long is shown whole; a longer one by its two ends. */
const STRETCH = 400;
/** Candidates looked at on the other side when pairing a long line. */
const CANDIDATES = 8;

const plural = (n: number, what: string) => `${n.toLocaleString('en')} more ${what}${n === 1 ? '' : 's'}`;

const lineCutNote = (used: number, lines: number, changesLeft: number, hunkContinues?: boolean) =>
  `[diff cut at ${used.toLocaleString('en')} characters: ${plural(lines, 'line')}${changesLeft > 0 ? ` and ${plural(changesLeft, 'change')}` : ''} not shown${hunkContinues ? ' (the last hunk goes on past them: its header counts only part of it)' : ''}; read the file to see them]`;

const moreNote = (changesLeft: number, hunkContinues?: boolean) =>
  `[${plural(changesLeft, 'change')} not shown${hunkContinues ? ' (the last hunk goes on: its header counts the lines shown)' : ''}; read the file to see them]`;

/** The note in `room` characters: its short form when the whole does not fit, else nothing. */
function fitted(note: string, room: number): string {
  if (note.length <= room) return note;
  const short = '[diff not shown]';
  return short.length <= room ? short : '';
}

/** The LINE#HASH| anchor edit_lines puts before a line's text, if any. */
const ANCHOR = /^\d+#[0-9a-f]{4,8}\|/;

/** Where a diff line's text starts: after its mark, and after its anchor when it has one. */
function textStart(line: string): number {
  const anchor = ANCHOR.exec(line.slice(1, 40));
  return 1 + (anchor ? anchor[0].length : 0);
}

/** A long line's place in its change block: its index among its side's lines, and the other side's lines. */
interface BlockPlace {
  k: number;
  mine: readonly number[];
  theirs: readonly number[];
}

/**
 * Each long `-` or `+` line's place in its change block (the `-` and `+` lines
 * between two context lines; `\` markers skipped), for pairing it with the line it
 * replaces. Nothing is compared here.
 */
function longLineBlocks(lines: readonly string[]): Map<number, BlockPlace> {
  const places = new Map<number, BlockPlace>();
  for (let i = 0; i < lines.length; ) {
    const mark = lines[i]![0];
    if (mark !== '-' && mark !== '+' && mark !== '\\') {
      i++;
      continue;
    }
    const removed: number[] = [];
    const added: number[] = [];
    for (; i < lines.length && '-+\\'.includes(lines[i]![0] ?? ' '); i++) {
      if (lines[i]!.startsWith('--- ') || lines[i]!.startsWith('+++ ')) break;
      if (lines[i]![0] === '-') removed.push(i);
      else if (lines[i]![0] === '+') added.push(i);
    }
    if (removed.length === 0 && added.length === 0) i++;
    for (const [mine, theirs] of [
      [removed, added],
      [added, removed],
    ] as const)
      mine.forEach((at, k) => {
        if (lines[at]!.length > LONG_LINE && theirs.length > 0) places.set(at, { k, mine, theirs });
      });
  }
  return places;
}

/**
 * The line of the other side of a long line's change block most like it: the
 * longest shared start and end, among the lines near the same place in the block
 * and those nearest in length. Position alone is not enough: a line deleted or
 * inserted before a changed one, or a long line moved past short ones, would take
 * another line's partner.
 */
function partnerOf(lines: readonly string[], at: number, { k, mine, theirs }: BlockPlace): string {
  const near = Math.round((k * theirs.length) / mine.length);
  const from = Math.max(0, near - CANDIDATES / 2);
  const length = lines[at]!.length;
  const alike = [...theirs]
    .sort((p, q) => Math.abs(lines[p]!.length - length) - Math.abs(lines[q]!.length - length))
    .slice(0, CANDIDATES);
  let best = theirs[0]!;
  let bestScore = -1;
  for (const other of new Set([...theirs.slice(from, from + CANDIDATES), ...alike])) {
    const score = sharedEnds(lines[at]!, lines[other]!).total;
    if (score > bestScore) {
      bestScore = score;
      best = other;
    }
  }
  return lines[best]!;
}

/** How much of their texts (after mark and anchor) two lines share at the start and at the end. */
function sharedEnds(a: string, b: string): { start: number; end: number; total: number } {
  const sa = textStart(a);
  const sb = textStart(b);
  const room = Math.min(a.length - sa, b.length - sb);
  const start = commonLength(a, sa, a.length, b, sb, b.length);
  const BLOCK = 4096;
  let end = 0;
  while (
    end + BLOCK <= room - start &&
    a.slice(a.length - end - BLOCK, a.length - end) === b.slice(b.length - end - BLOCK, b.length - end)
  )
    end += BLOCK;
  while (end < room - start && a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)) end++;
  return { start, end, total: start + end };
}

/** A long line: its start, and both ends of the stretch where it differs from `partner`; the rest counted. */
function shortened(line: string, partner: string | undefined): string {
  const keep: Array<[number, number]> = [[0, HEAD]];
  if (partner !== undefined) {
    const shared = sharedEnds(line, partner);
    const first = textStart(line) + shared.start;
    const last = Math.max(first, line.length - shared.end);
    if (last - first <= STRETCH) keep.push([first - AROUND, last + AROUND]);
    else keep.push([first - AROUND, first + STRETCH / 2], [last - STRETCH / 2, last + AROUND]);
  }
  // Without surrogates (most text), characters are code units and nothing needs counting.
  const count = SURROGATE.test(line)
    ? (from: number, to: number) => codePoints(line, from, to)
    : (from: number, to: number) => to - from;
  const parts: string[] = [];
  let at = 0;
  for (const [a, b] of keep) {
    const from = whole(line, Math.min(line.length, Math.max(at, a)));
    const to = whole(line, Math.min(line.length, Math.max(from, b)));
    if (from > at) parts.push(cut(count(at, from)));
    parts.push(line.slice(from, to));
    at = Math.max(at, to);
  }
  if (at < line.length) parts.push(cut(count(at, line.length)));
  return parts.join('');
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** `at`, or one before it when `at` would split a surrogate pair. */
function whole(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return at > 0 && at < text.length && c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

/** Characters (code points) in text[from, to), which starts and ends between characters. */
function codePoints(text: string, from: number, to: number): number {
  let pairs = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (
      c >= 0xdc00 &&
      c <= 0xdfff &&
      i > from &&
      text.charCodeAt(i - 1) >= 0xd800 &&
      text.charCodeAt(i - 1) <= 0xdbff
    )
      pairs++;
  }
  return to - from - pairs;
}

const cut = (n: number) => `[… ${n.toLocaleString('en')} characters …]`;
