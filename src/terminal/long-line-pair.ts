import { charsFitting, charWidth, columnsOf, displayWidth } from '../text/display-width.js';
import type { Style } from './style.js';

/** Characters of unchanged text kept before the change when the window must scroll past them. */
const CONTEXT = 8;

function markerFor(hidden: number): string {
  return hidden > 0 ? `…+${hidden}` : '';
}

/**
 * A changed line pair too long for the width: both lines are cut to the same
 * window, which always starts at or before the first difference, with the
 * differing spans highlighted, so the change itself is on screen rather than
 * cut off at the right edge. Room for the tail marker ("…+N") is reserved at
 * its widest, so no tail length can push the change out. Takes sanitised lines;
 * returns undefined only when the width is too small for any window.
 */
export function longLinePair(
  oldText: string,
  newText: string,
  width: number,
  style: Style,
  /**
   * When the lines are windows of longer ones (cut before sanitising, so a
   * 10 MB line is never sanitised whole): characters hidden before both
   * windows, and after each.
   */
  hidden: { before: number; afterOld: number; afterNew: number } = { before: 0, afterOld: 0, afterNew: 0 },
): [string, string] | undefined {
  const a = [...oldText];
  const b = [...newText];
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  // Without colour the highlight is written as [-…-] / {+…+}: leave room for the marks.
  const marks = style.delWord('x') === '[-x-]' ? displayWidth('[--]') : 0;
  const room = width - marks;
  const tailRoom = displayWidth(markerFor(Math.max(a.length + hidden.afterOld, b.length + hidden.afterNew)));
  if (room < CONTEXT * 2 + tailRoom + 2) return undefined;
  // Scroll right only as far as needed to bring the whole change (and a tail marker) on
  // screen, and never so far that less than CONTEXT characters before the change remain.
  const changeEnd = Math.max(columnsOf(a, 0, a.length - s), columnsOf(b, 0, b.length - s));
  const needed = changeEnd + displayWidth('…') + tailRoom - room;
  let start = 0;
  if (needed > 0) {
    const maxStart = Math.max(0, p - CONTEXT);
    let skipped = 0;
    while (start < maxStart && skipped < needed) skipped += charWidth(a[start++]!);
  }
  const render = (
    chars: string[],
    after: number,
    paint: (t: string) => string,
    word: (t: string) => string,
  ) => {
    const lead = start > 0 || hidden.before > 0 ? '…' : '';
    const avail = room - displayWidth(lead);
    const end = chars.length - s;
    let stop = chars.length;
    let marker = '';
    if (after > 0 || columnsOf(chars, start) > avail) {
      stop = start + charsFitting(chars, avail - tailRoom, start);
      marker = markerFor(chars.length - stop + after);
    }
    const at = (i: number) => Math.min(i, stop);
    const text = (from: number, to: number) => chars.slice(from, to).join('');
    // A side with nothing changed (a pure insertion or deletion) gets no empty highlight.
    const changed = text(at(p), at(end));
    return (
      paint(lead + text(start, at(p))) + (changed ? word(changed) : '') + paint(text(at(end), stop)) + marker
    );
  };
  return [
    render(a, hidden.afterOld, style.red, style.delWord),
    render(b, hidden.afterNew, style.green, style.addWord),
  ];
}
