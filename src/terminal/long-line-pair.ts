import type { Style } from './style.js';

/** Room kept for the "…+N" marker of a cut tail. */
const TAIL_MARKER = 4;

function markerFor(hidden: number): string {
  return hidden > 0 ? `…+${hidden}` : '';
}

/**
 * A changed line pair too long for the width: both lines are cut to the same
 * window around the first difference, with the differing spans highlighted, so
 * the change itself is on screen rather than cut off at the right edge. Takes
 * sanitised lines; returns undefined when the changed spans do not fit at all.
 */
export function longLinePair(
  oldText: string,
  newText: string,
  width: number,
  style: Style,
): [string, string] | undefined {
  const a = [...oldText];
  const b = [...newText];
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  // Shift only as far as needed to bring the end of the change (and a tail marker) on screen.
  const marks = style.delWord('x') === '[-x-]' ? 4 : 0;
  const changeEnd = Math.max(a.length, b.length) - s;
  const overflow = changeEnd + marks + TAIL_MARKER + 1 - width;
  const start = overflow <= 0 ? 0 : Math.min(p, Math.max(overflow, 0));
  const render = (
    chars: string[],
    paint: (t: string) => string,
    word: (t: string) => string,
    marks: number,
  ) => {
    const lead = (start > 0 ? '…' : '') + chars.slice(start, p).join('');
    const changed = chars.slice(p, chars.length - s).join('');
    const rest = chars.slice(chars.length - s);
    const room = width - marks - [...lead].length - [...changed].length;
    if (room < 0) return undefined;
    if (rest.length <= room) return paint(lead) + word(changed) + paint(rest.join(''));
    let shown = room;
    while (shown > 0 && shown + markerFor(rest.length - shown).length > room) shown--;
    const marker = markerFor(rest.length - shown);
    if (shown + marker.length > room) return undefined;
    return paint(lead) + word(changed) + paint(rest.slice(0, shown).join('')) + marker;
  };
  // Without colour the highlight is written as [-…-] / {+…+}: `marks` leaves room for them.
  const del = render(a, style.red, style.delWord, marks);
  const add = render(b, style.green, style.addWord, marks);
  return del !== undefined && add !== undefined ? [del, add] : undefined;
}
