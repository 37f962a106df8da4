import { charsFitting, charWidth, displayWidth } from '../text/display-width.js';
import { codePointLabel, INVISIBLE_CHARS } from '../text/invisible-chars.js';
import { markLookAlikes } from '../text/look-alikes.js';

/**
 * Makes any text safe to print: everything the shared visibility rule calls
 * invisible (controls, escape sequences, bidi controls, zero-width and tag
 * characters, variation selectors, fillers, look-alike spaces) is shown as a
 * visible token, never interpreted, so a file cannot move the cursor, recolour
 * the screen, redraw the prompt, fake a diff line or hide text. Tabs are expanded.
 */
function visible(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (code === 0x1b) return '␛';
  if (code === 0x0d) return '␍';
  if (code === 0x0a) return '␊';
  if (code === 0x7f) return '␡';
  if (code < 0x20) return String.fromCodePoint(0x2400 + code); // ␀ ␁ … control pictures
  return token(ch);
}

const token = (ch: string) => `⟨${codePointLabel(ch)}⟩`;
const CLUSTER = /\P{M}?\p{M}*/gu;
const MARK = /^\p{M}$/u;

/**
 * Text that draws the same as other text is shown by its code points: a cluster
 * (a character and its combining marks) that is not in NFC (`e` + U+0301 draws
 * as `é`, U+212B as `Å`) keeps its NFC-stable base and shows the rest as
 * tokens, and a combining mark repeated on one character (drawn once, on top
 * of itself) is a token.
 */
function showUnnormalized(text: string): string {
  if (!/\p{M}/u.test(text) && text.normalize('NFC') === text) return text;
  return text.replace(CLUSTER, (cluster) => {
    if (cluster.length === 0) return cluster;
    const chars = [...cluster];
    const nfc = cluster.normalize('NFC') !== cluster;
    const seen = new Set<string>();
    let out = '';
    for (const [i, ch] of chars.entries()) {
      const mark = MARK.test(ch);
      const repeated = mark && seen.has(ch);
      seen.add(ch);
      const stable = i === 0 && !mark ? ch.normalize('NFC') === ch : !nfc;
      out += stable && !repeated ? ch : token(ch);
    }
    return out;
  });
}

/**
 * One line, safe to print. With `showWhitespace` (changed diff rows) a tab is
 * drawn as `→` and trailing spaces as `·`, so a whitespace-only change is never
 * two identical-looking rows; `'tabs'` marks tabs only (a piece of a line
 * that does not end it).
 */
export function sanitizeLine(text: string, tabWidth = 4, showWhitespace: boolean | 'tabs' = false): string {
  // Printable ASCII needs nothing replaced and takes a column a character: a long line of it
  // (a 10 MB minified file) is checked by one native regex, not walked a character at a time.
  if (PRINTABLE_ASCII.test(text))
    return showWhitespace === true ? text.replace(/ +$/, (spaces) => '·'.repeat(spaces.length)) : text;
  let out = '';
  let column = 0;
  const safe = markLookAlikes(showUnnormalized(text.replace(INVISIBLE_CHARS, visible)));
  for (const ch of safe) {
    if (ch === '\t') {
      const n = tabWidth - (column % tabWidth);
      out += showWhitespace ? `→${' '.repeat(n - 1)}` : ' '.repeat(n);
      column += n;
    } else {
      out += ch;
      column += charWidth(ch);
    }
  }
  if (showWhitespace === true) {
    const body = safe.replace(/ +$/, '');
    if (body.length < safe.length) out = out.replace(/ +$/, (spaces) => '·'.repeat(spaces.length));
  }
  return out;
}

/** Text of printable ASCII characters only (no tab, no control character). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Sanitises each line of a multi-line text. */
export function sanitizeLines(text: string): string[] {
  return text.split('\n').map((l) => sanitizeLine(l));
}

/** Cuts a (sanitised) line to `width` columns with a visible marker saying how much is hidden. */
export function fitWidth(line: string, width: number): string {
  if (displayWidth(line) <= width) return line;
  const chars = [...line];
  // Room for the marker at its widest, so the marker itself never overflows.
  const shown = Math.max(1, charsFitting(chars, width - displayWidth(`…+${chars.length}`)));
  return `${chars.slice(0, shown).join('')}…+${chars.length - shown}`;
}

/**
 * Drops the first `columns` columns of a (sanitised) line for horizontal
 * scrolling, with a leading marker when something is hidden on the left.
 */
export function shiftLeft(line: string, columns: number): string {
  if (columns <= 0) return line;
  if (PRINTABLE_ASCII.test(line)) return line === '' ? line : `…${line.slice(columns + 1)}`;
  const chars = [...line];
  if (chars.length === 0) return line;
  let i = 0;
  for (let used = 0; i < chars.length && used <= columns; i++) used += charWidth(chars[i]!);
  return `…${chars.slice(i).join('')}`;
}
