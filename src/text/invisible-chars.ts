/**
 * The one visibility rule, shared by the terminal sanitiser, the web card, the
 * MCP dialog text and the path validator. It is an allowlist by Unicode
 * property (the runtime's own Unicode data, so it follows every Unicode update
 * without a hand list): a code point is drawn as itself only when it is
 * assigned, not a control (Cc, except the tab, which callers draw as
 * whitespace), not a format character (Cf), not default-ignorable, not private
 * use (Co) or a lone surrogate (Cs), not a line or paragraph separator (Zl,
 * Zp), and, among spaces (Zs), only the ASCII space. Everything else is shown
 * as a token. One extra: U+2800 (Braille blank) is a symbol that draws as
 * nothing at all.
 */
const INVISIBLE_SOURCE =
  '(?![\\t ])[\\p{Cn}\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\p{Co}\\p{Cs}\\p{Zl}\\p{Zp}\\p{Zs}\\u2800]';

/** Every invisible code point (global, for replacing). */
export const INVISIBLE_CHARS = new RegExp(INVISIBLE_SOURCE, 'gu');

const ONE_INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'u');

/** Whether one code point is drawn as a token rather than as itself (the tab counts as visible). */
export function isInvisible(char: string): boolean {
  return ONE_INVISIBLE.test(char);
}

/** The first invisible character in `text` (with its index), or undefined. */
export function findInvisible(text: string): { char: string; index: number } | undefined {
  const m = ONE_INVISIBLE.exec(text);
  return m ? { char: m[0], index: m.index } : undefined;
}

/** `U+202E`: how a code point is named when it is shown or reported. */
export function codePointLabel(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
