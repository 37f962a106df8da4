import { diffWordsWithSpace } from 'diff';
import { charsFitting, displayWidth } from '../text/display-width.js';
import { longLinePair } from './long-line-pair.js';
import { fitWidth, sanitizeLine, shiftLeft } from './sanitize.js';
import { type Style, visibleLength } from './style.js';

interface Row {
  kind: 'hunk' | 'context' | 'add' | 'del' | 'note';
  text: string;
  oldNo?: number;
  newNo?: number;
}

/** Parses a unified diff into rows with old/new line numbers (headers dropped). */
export function parseDiffRows(unifiedDiff: string): Row[] {
  const { count, kinds, oldNos, newNos, starts, ends } = indexDiff(unifiedDiff);
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const row: Row = {
      kind: KIND_NAMES[kinds[i] as keyof typeof KIND_NAMES],
      text: unifiedDiff.slice(starts[i]!, ends[i]!),
    };
    if (oldNos[i]! >= 0) row.oldNo = oldNos[i]!;
    if (newNos[i]! >= 0) row.newNo = newNos[i]!;
    rows.push(row);
  }
  return rows;
}

/** Counts added/removed lines of a full diff (stats never come from a cut view). */
export function diffStats(unifiedDiff: string): { added: number; removed: number } {
  const index = indexDiff(unifiedDiff);
  let added = 0;
  let removed = 0;
  for (let i = 0; i < index.count; i++) {
    if (index.kinds[i] === ADD) added++;
    else if (index.kinds[i] === DEL) removed++;
  }
  return { added, removed };
}

const HUNK = 1;
const CONTEXT = 2;
const ADD = 3;
const DEL = 4;
const NOTE = 5;
const KIND_NAMES = {
  [HUNK]: 'hunk',
  [CONTEXT]: 'context',
  [ADD]: 'add',
  [DEL]: 'del',
  [NOTE]: 'note',
} as const;

/**
 * A diff's rows as flat typed arrays (kind, old/new line number, where the text
 * starts and ends in the diff string): one pass, no per-row objects or strings,
 * so a 100,000-line diff is indexed in a few milliseconds and text is sliced
 * only for the rows on screen.
 */
interface DiffIndex {
  count: number;
  kinds: Uint8Array;
  oldNos: Int32Array;
  newNos: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * A row's kind comes from its position in the diff, never from its text: file
 * headers (`---`, `+++`, `diff`, `Index:`, `===`) are recognised only between
 * hunks, and inside a hunk exactly the line counts its `@@` header declares are
 * read as removed / added / context rows. So an added line whose content is
 * `++ x` (diff line `+++ x`) or a removed `-- x` is a change like any other,
 * drawn and counted. A stray line outside any hunk is shown as a note, never hidden.
 */
function indexDiff(diff: string): DiffIndex {
  let lines = 1;
  for (let i = diff.indexOf('\n'); i !== -1; i = diff.indexOf('\n', i + 1)) lines++;
  const kinds = new Uint8Array(lines);
  const oldNos = new Int32Array(lines).fill(-1);
  const newNos = new Int32Array(lines).fill(-1);
  const starts = new Int32Array(lines);
  const ends = new Int32Array(lines);
  let count = 0;
  let oldNo = 0;
  let newNo = 0;
  // Lines the current hunk still owes on each side (both 0: between hunks).
  let oldLeft = 0;
  let newLeft = 0;
  for (let start = 0; start <= diff.length; ) {
    let end = diff.indexOf('\n', start);
    if (end === -1) end = diff.length;
    const c = diff.charCodeAt(start);
    let kind = 0;
    let from = start + 1;
    if (oldLeft > 0 || newLeft > 0) {
      if (c === 43 /* + */) {
        kind = ADD;
        newNos[count] = newNo++;
        newLeft--;
      } else if (c === 45 /* - */) {
        kind = DEL;
        oldNos[count] = oldNo++;
        oldLeft--;
      } else if (c === 92 /* \\ */) {
        kind = NOTE;
        from = start;
      } else {
        // ' ' or an empty line (some tools strip the space of an empty context line).
        kind = CONTEXT;
        if (end === start || c !== 32) from = start;
        oldNos[count] = oldNo++;
        newNos[count] = newNo++;
        oldLeft--;
        newLeft--;
      }
    } else if (end > start) {
      const hunk = c === 64 /* @ */ ? HUNK_HEADER.exec(diff.slice(start, end)) : null;
      if (hunk) {
        oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
        newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
        // GNU convention: an empty range names the line before it.
        oldNo = Number(hunk[1]) + (oldLeft === 0 ? 1 : 0);
        newNo = Number(hunk[3]) + (newLeft === 0 ? 1 : 0);
        kind = HUNK;
        from = start;
      } else if (!isFileHeader(diff, start)) {
        kind = NOTE;
        from = start;
      }
    }
    if (kind) {
      kinds[count] = kind;
      starts[count] = from;
      ends[count] = end;
      count++;
    }
    start = end + 1;
  }
  return { count, kinds, oldNos, newNos, starts, ends };
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const FILE_HEADERS = ['--- ', '+++ ', 'diff ', 'Index: ', '==='];

/** Only ever asked between hunks: inside one, a `---`/`+++` line is a change. */
function isFileHeader(diff: string, start: number): boolean {
  return FILE_HEADERS.some((h) => diff.startsWith(h, start));
}

/**
 * Word-level highlights for a removed/added pair: only the changed words are
 * marked. Takes sanitised lines (tabs already expanded against the whole line).
 */
function wordPair(oldText: string, newText: string, style: Style): [string, string] {
  const parts = diffWordsWithSpace(oldText, newText);
  let del = '';
  let add = '';
  for (const p of parts) {
    const text = p.value;
    if (p.added) add += style.addWord(text);
    else if (p.removed) del += style.delWord(text);
    else {
      del += style.red(text);
      add += style.green(text);
    }
  }
  return [del, add];
}

/**
 * Lines produced on demand: a pager asks only for what is on screen. `shift`
 * scrolls long lines horizontally (sources that cut lines honour it, so every
 * character a cut hides can still be reached in the pager).
 */
export interface LineSource {
  count: number;
  line(index: number, shift?: number): string;
  /** The line's whole text, sanitised but neither cut nor styled (what the pager searches). */
  text?(index: number): string;
  /** The file line it shows, as search results name it: `new line 99`, `old line 12`. */
  where?(index: number): string;
}

export function arraySource(lines: readonly string[]): LineSource {
  return { count: lines.length, line: (i) => lines[i] ?? '' };
}

export function allLines(source: LineSource): string[] {
  return Array.from({ length: source.count }, (_, i) => source.line(i));
}

/**
 * The row a changed row is paired with for word highlights: the i-th removed line
 * of a block with the i-th added line, when both runs have the same length.
 * Note rows (`\ No newline at end of file`) inside a block are skipped: they sit
 * between the - and + rows of a last line without a final newline. Each block is
 * scanned once, when one of its rows is first drawn (a pager draws a screen of
 * rows from a block of 100,000).
 */
export function diffPartners(kinds: Uint8Array, count: number): (row: number) => number | undefined {
  const inBlock = (k: number | undefined) => k === DEL || k === ADD || k === NOTE;
  interface Block {
    first: number;
    end: number;
    /** Its removed rows and its added rows, when it pairs them (one removed run, then as many added). */
    pairs?: { dels: Int32Array; adds: Int32Array };
  }
  const scan = (first: number): Block => {
    let dels = 0;
    let adds = 0;
    let end = first;
    let oneRunEach = true;
    for (; end < count && inBlock(kinds[end]); end++) {
      if (kinds[end] === DEL) {
        if (adds > 0) oneRunEach = false;
        dels++;
      } else if (kinds[end] === ADD) adds++;
    }
    if (!oneRunEach || dels === 0 || dels !== adds) return { first, end };
    const pairs = { dels: new Int32Array(dels), adds: new Int32Array(adds) };
    for (let i = first, d = 0, a = 0; i < end; i++) {
      if (kinds[i] === DEL) pairs.dels[d++] = i;
      else if (kinds[i] === ADD) pairs.adds[a++] = i;
    }
    return { first, end, pairs };
  };
  // The rows drawn together are neighbours: the last block found answers most of them.
  let last: Block | undefined;
  return (row) => {
    const kind = kinds[row];
    if (kind !== DEL && kind !== ADD) return undefined;
    if (!last || row < last.first || row >= last.end) {
      let first = row;
      while (first > 0 && inBlock(kinds[first - 1])) first--;
      last = scan(first);
    }
    if (!last.pairs) return undefined;
    const [mine, theirs] =
      kind === DEL ? [last.pairs.dels, last.pairs.adds] : [last.pairs.adds, last.pairs.dels];
    const rank = rankOf(mine, row);
    return rank === undefined ? undefined : theirs[rank];
  };
}

/** Index of `value` in the ascending `sorted`, by binary search. */
function rankOf(sorted: Int32Array, value: number): number | undefined {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * A unified diff as terminal lines, rendered lazily: hunk headers (with a gap
 * marker between hunks), an old/new line-number gutter, red/green lines with
 * word-level highlights for paired changed lines, tabs expanded, long lines cut
 * with a marker. Indexing is one cheap pass; text and styling happen per visible line.
 */
export function diffLineSource(unifiedDiff: string, style: Style, width: number): LineSource {
  const { count, kinds, oldNos, newNos, starts, ends } = indexDiff(unifiedDiff);
  const partnerOf = diffPartners(kinds, count);
  let maxNo = 0;
  for (let i = 0; i < count; i++) maxNo = Math.max(maxNo, oldNos[i]!, newNos[i]!);
  const numWidth = Math.max(3, String(maxNo).length);
  const textWidth = Math.max(10, width - (numWidth * 2 + 4));
  // Screen lines: a row index (>= 0), or a gap marker between hunks (-(hidden lines)).
  const slots = new Int32Array(count * 2);
  let slotCount = 0;
  let lastOld = -1;
  for (let i = 0; i < count; i++) {
    if (kinds[i] === HUNK) {
      const next = hunkOldStart(i);
      if (lastOld >= 0 && next > lastOld + 1) slots[slotCount++] = -(next - lastOld - 1);
    } else if (oldNos[i]! >= 0) lastOld = oldNos[i]!;
    slots[slotCount++] = i;
  }
  function hunkOldStart(hunkRow: number): number {
    const m = HUNK_HEADER.exec(unifiedDiff.slice(starts[hunkRow]!, ends[hunkRow]!));
    return Number(m?.[1] ?? 0);
  }
  // Changed rows show whitespace (→ tab, · trailing space): a whitespace-only change stays visible.
  const changed = (t: string) => sanitizeLine(t, 4, true);
  const rowText = (row: number) => unifiedDiff.slice(starts[row]!, ends[row]!);
  const no = (n: number) => (n < 0 ? ' '.repeat(numWidth) : String(n).padStart(numWidth));
  const gutter = (row: number) => style.dim(`${no(oldNos[row]!)} ${no(newNos[row]!)} `);
  const fits = (t: string) => displayWidth(t) <= textWidth;
  // Raw characters kept around what is on screen when a line is too long to sanitise whole:
  // rendering costs what is shown, not the line's length (a 10 MB line is cut first).
  const rawRoom = (textWidth + 64) * 4;
  const long = (t: string) => t.length > LONG_LINE;
  const render = (slot: number, shift: number): string => {
    if (slot < 0) return style.dim(`${' '.repeat(numWidth)} ⋯ ${-slot} unchanged lines ⋯`);
    const kind = kinds[slot];
    if (kind === HUNK) return style.cyan(fitWidth(sanitizeLine(rowText(slot)), width));
    if (kind === NOTE) return style.dim(fitWidth(sanitizeLine(rowText(slot)), width));
    const other = shift === 0 ? partnerOf(slot) : undefined;
    if (other !== undefined && (long(rowText(slot)) || long(rowText(other)))) {
      const [oldRaw, newRaw] =
        kind === DEL ? [rowText(slot), rowText(other)] : [rowText(other), rowText(slot)];
      const pair = windowedPair(oldRaw, newRaw, rawRoom, textWidth, style);
      const marked = pair?.[kind === DEL ? 0 : 1];
      if (marked !== undefined && visibleLength(marked) <= textWidth)
        return gutter(slot) + (kind === DEL ? style.red('-') : style.green('+')) + marked;
    } else if (other !== undefined) {
      const mine = changed(rowText(slot));
      const theirs = changed(rowText(other));
      const [oldText, newText] = kind === DEL ? [mine, theirs] : [theirs, mine];
      // Short pairs get word highlights; long ones are cut to a window around the change.
      const pair =
        fits(mine) && fits(theirs)
          ? wordPair(oldText, newText, style)
          : longLinePair(oldText, newText, textWidth, style);
      const marked = pair?.[kind === DEL ? 0 : 1];
      // Without colour the [-…-] / {+…+} marks take room: lines that overflow are shown unmarked instead.
      if (marked !== undefined && visibleLength(marked) <= textWidth)
        return gutter(slot) + (kind === DEL ? style.red('-') : style.green('+')) + marked;
    }
    const raw = rowText(slot);
    // A long line is cut (raw) to what the shift and the width can show before it is sanitised.
    const cut = long(raw) ? rawHead(raw, (shift + textWidth) * 4 + 256) : raw;
    const line = kind === CONTEXT ? sanitizeLine(cut) : changed(cut);
    // Scrolled sideways, what follows the screen is cut again: the rest of a long line is not fitted.
    const shifted = shiftLeft(line, shift);
    const shown = long(raw) ? rawHead(shifted, rawRoom) : shifted;
    const hiddenRaw = raw.length - cut.length + shifted.length - shown.length;
    const text = hiddenRaw > 0 ? fitHidden(shown, textWidth, hiddenRaw) : fitWidth(shown, textWidth);
    if (kind === ADD) return gutter(slot) + style.green(`+${text}`);
    if (kind === DEL) return gutter(slot) + style.red(`-${text}`);
    return `${gutter(slot)} ${text}`;
  };
  const text = (i: number) => {
    const slot = slots[i]!;
    return slot < 0 ? '' : sanitizeLine(rowText(slot));
  };
  const where = (i: number) => {
    const slot = slots[i]!;
    if (slot < 0) return 'between hunks';
    if (newNos[slot]! >= 0) return `new line ${newNos[slot]!.toLocaleString('en')}`;
    if (oldNos[slot]! >= 0) return `old line ${oldNos[slot]!.toLocaleString('en')}`;
    return 'hunk header';
  };
  return { count: slotCount, line: (i, shift = 0) => render(slots[i]!, shift), text, where };
}

/** Lines longer than this (code units) are cut before they are sanitised. */
const LONG_LINE = 16_384;

/** The first `n` code units of `text`, never splitting a surrogate pair. */
function rawHead(text: string, n: number): string {
  if (n >= text.length) return text;
  const c = text.charCodeAt(n - 1);
  return text.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

/** Fits a cut line whose raw tail of `hidden` characters was never sanitised: always marked. */
function fitHidden(line: string, width: number, hidden: number): string {
  const marker = `…+${hidden}`;
  const chars = [...line];
  const shown = charsFitting(chars, Math.max(1, width - displayWidth(`…+${hidden + chars.length}`)));
  return `${chars.slice(0, shown).join('')}…+${hidden + chars.length - shown}`.replace(/^$/, marker);
}

/** Length of the common prefix, compared a block at a time (native string equality) first. */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  const BLOCK = 4096;
  let p = 0;
  while (p + BLOCK <= max && a.slice(p, p + BLOCK) === b.slice(p, p + BLOCK)) p += BLOCK;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return p;
}

/**
 * A long removed/added pair, windowed on the raw text before sanitising: the
 * window starts a little before the first difference (so the change is on
 * screen, as `longLinePair` guarantees), only the windows are sanitised, and
 * the hidden parts are counted in the markers.
 */
function windowedPair(
  oldRaw: string,
  newRaw: string,
  room: number,
  width: number,
  style: Style,
): [string, string] | undefined {
  const p = commonPrefix(oldRaw, newRaw);
  // Some context before the change, starting on a whole character (and before any marks of it).
  let from = Math.max(0, p - 64);
  const c = oldRaw.charCodeAt(from);
  if (from > 0 && c >= 0xdc00 && c <= 0xdfff) from--;
  const oldWin = rawHead(oldRaw.slice(from), room);
  const newWin = rawHead(newRaw.slice(from), room);
  return longLinePair(sanitizeLine(oldWin, 4, true), sanitizeLine(newWin, 4, true), width, style, {
    before: from,
    afterOld: oldRaw.length - from - oldWin.length,
    afterNew: newRaw.length - from - newWin.length,
  });
}

/** The whole diff rendered (for small diffs and tests). */
export function renderDiff(unifiedDiff: string, style: Style, width: number): string[] {
  return allLines(diffLineSource(unifiedDiff, style, width));
}
