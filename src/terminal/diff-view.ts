import { diffWordsWithSpace } from 'diff';
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
  const rows: Row[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const line of unifiedDiff.split('\n')) {
    if (line.startsWith('--- ') || line.startsWith('+++ ')) continue;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      // GNU convention: an empty range names the line before it.
      if (/^@@ -\d+,0 /.test(line)) oldNo++;
      if (/ \+\d+,0 @@/.test(line)) newNo++;
      rows.push({ kind: 'hunk', text: line });
    } else if (line.startsWith('+')) rows.push({ kind: 'add', text: line.slice(1), newNo: newNo++ });
    else if (line.startsWith('-')) rows.push({ kind: 'del', text: line.slice(1), oldNo: oldNo++ });
    else if (line.startsWith('\\')) rows.push({ kind: 'note', text: line });
    else if (line.startsWith(' ')) {
      rows.push({ kind: 'context', text: line.slice(1), oldNo: oldNo++, newNo: newNo++ });
    }
  }
  return rows;
}

/** Counts added/removed lines of a full diff (stats never come from a cut view). */
export function diffStats(unifiedDiff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const r of parseDiffRows(unifiedDiff)) {
    if (r.kind === 'add') added++;
    else if (r.kind === 'del') removed++;
  }
  return { added, removed };
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
}

export function arraySource(lines: readonly string[]): LineSource {
  return { count: lines.length, line: (i) => lines[i] ?? '' };
}

export function allLines(source: LineSource): string[] {
  return Array.from({ length: source.count }, (_, i) => source.line(i));
}

type Slot = { gap: number } | { row: number };

/**
 * A unified diff as terminal lines, rendered lazily: hunk headers (with a gap
 * marker between hunks), an old/new line-number gutter, red/green lines with
 * word-level highlights for paired changed lines, tabs expanded, long lines cut
 * with a marker. Parsing is one cheap pass; styling happens per visible line.
 */
export function diffLineSource(unifiedDiff: string, style: Style, width: number): LineSource {
  const rows = parseDiffRows(unifiedDiff);
  let maxNo = 0;
  for (const r of rows) maxNo = Math.max(maxNo, r.oldNo ?? 0, r.newNo ?? 0);
  const numWidth = Math.max(3, String(maxNo).length);
  const textWidth = Math.max(10, width - (numWidth * 2 + 4));
  const slots: Slot[] = [];
  let lastOld: number | undefined;
  // For each changed row: the partner row it is paired with for word highlights, if any.
  const partner = new Map<number, number>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.kind === 'hunk') {
      const start = Number(/^@@ -(\d+)/.exec(r.text)?.[1] ?? 0);
      if (lastOld !== undefined && start > lastOld + 1) slots.push({ gap: start - lastOld - 1 });
    } else if (r.oldNo !== undefined) lastOld = r.oldNo;
    if (r.kind === 'del' && (i === 0 || rows[i - 1]!.kind !== 'del')) {
      let d = i;
      while (d < rows.length && rows[d]!.kind === 'del') d++;
      let a = d;
      while (a < rows.length && rows[a]!.kind === 'add') a++;
      if (d - i === a - d) {
        for (let k = 0; k < d - i; k++) {
          partner.set(i + k, d + k);
          partner.set(d + k, i + k);
        }
      }
    }
    slots.push({ row: i });
  }
  const gutter = (r: Row) =>
    style.dim(
      `${r.oldNo === undefined ? ' '.repeat(numWidth) : String(r.oldNo).padStart(numWidth)} ${r.newNo === undefined ? ' '.repeat(numWidth) : String(r.newNo).padStart(numWidth)} `,
    );
  const fits = (t: string) => [...t].length <= textWidth;
  const render = (slot: Slot, shift: number): string => {
    if ('gap' in slot) return style.dim(`${' '.repeat(numWidth)} ⋯ ${slot.gap} unchanged lines ⋯`);
    const r = rows[slot.row]!;
    if (r.kind === 'hunk') return style.cyan(fitWidth(sanitizeLine(r.text), width));
    if (r.kind === 'note') return style.dim(fitWidth(sanitizeLine(r.text), width));
    const other = partner.get(slot.row);
    if ((r.kind === 'del' || r.kind === 'add') && other !== undefined && shift === 0) {
      const mine = sanitizeLine(r.text);
      const theirs = sanitizeLine(rows[other]!.text);
      if (fits(mine) && fits(theirs)) {
        const [del, add] = wordPair(
          r.kind === 'del' ? mine : theirs,
          r.kind === 'del' ? theirs : mine,
          style,
        );
        const marked = r.kind === 'del' ? del : add;
        // Without colour the [-…-] / {+…+} marks take room: cut lines are shown unmarked instead.
        if (visibleLength(marked) <= textWidth)
          return gutter(r) + (r.kind === 'del' ? style.red('-') : style.green('+')) + marked;
      }
    }
    const text = fitWidth(shiftLeft(sanitizeLine(r.text), shift), textWidth);
    if (r.kind === 'add') return gutter(r) + style.green(`+${text}`);
    if (r.kind === 'del') return gutter(r) + style.red(`-${text}`);
    return `${gutter(r)} ${text}`;
  };
  const text = (i: number) => {
    const slot = slots[i]!;
    return 'gap' in slot ? '' : sanitizeLine(rows[slot.row]!.text);
  };
  return { count: slots.length, line: (i, shift = 0) => render(slots[i]!, shift), text };
}

/** The whole diff rendered (for small diffs and tests). */
export function renderDiff(unifiedDiff: string, style: Style, width: number): string[] {
  return allLines(diffLineSource(unifiedDiff, style, width));
}
