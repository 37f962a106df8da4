import { eastAsianWidth } from 'get-east-asian-width';

// Combining marks (and the zero-width joiners the sanitiser has not already made visible) take
// no column of their own: they draw on the character before them.
const ZERO_WIDTH = /^[\p{Mn}\p{Me}]$/u;

/**
 * Terminal columns one code point takes: 2 for East Asian wide, fullwidth and
 * ambiguous-width characters, 0 for combining marks, else 1. Ambiguous ones
 * (e.g. U+3248, `→`, `…`, `│`) are drawn 2 columns wide by terminals in CJK
 * locales: counting them as 1 would let a fitted row wrap, and a wrapped tail
 * reads as a row of its own. Over-counting only leaves a little room unused.
 */
export function charWidth(ch: string): number {
  const code = ch.codePointAt(0)!;
  if (code < 0xa1) return 1;
  if (ZERO_WIDTH.test(ch)) return 0;
  return eastAsianWidth(code, { ambiguousAsWide: true });
}

/** Columns a string (without escape sequences) takes on a terminal. */
export function displayWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xa1) {
      width++;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    if (ch.length === 2) i++;
    width += charWidth(ch);
  }
  return width;
}

/** The longest head of `chars` that fits in `columns`; returns how many characters that is. */
export function charsFitting(chars: readonly string[], columns: number, from = 0): number {
  let used = 0;
  let i = from;
  for (; i < chars.length; i++) {
    const w = charWidth(chars[i]!);
    if (used + w > columns) break;
    used += w;
  }
  return i - from;
}

/** Columns of `chars[from, to)`. */
export function columnsOf(chars: readonly string[], from = 0, to = chars.length): number {
  let used = 0;
  for (let i = from; i < to; i++) used += charWidth(chars[i]!);
  return used;
}
