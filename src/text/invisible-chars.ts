/**
 * The one visibility rule, shared by the terminal sanitiser (file content,
 * paths, notes on screen) and the path validator (paths a model may use): a
 * code point is "invisible" when a person reading a terminal cannot see it or
 * cannot tell it from another character:
 * - C0/C1 controls and DEL (the tab is the caller's to handle: it is whitespace);
 * - zero-width characters, joiners, soft hyphen, word joiner and invisible operators;
 * - bidi controls (LRM/RLM/ALM, embeddings, overrides, isolates);
 * - tag characters U+E0000–E007F ("ASCII smuggling"), variation selectors
 *   (U+FE00–FE0F, U+E0100–E01EF, Mongolian U+180B–180F), U+034F CGJ;
 * - fillers that draw as blanks (Hangul U+115F, U+1160, U+3164, U+FFA0,
 *   Khmer U+17B4/17B5, Braille blank U+2800) and every space other than
 *   U+0020 (NBSP, U+1680, U+2000–200A, U+202F, U+205F, U+3000);
 * - line/paragraph separators, interlinear annotations, BOM, noncharacters
 *   U+FFFE/FFFF and lone surrogates (text that is not valid Unicode).
 */
const INVISIBLE_SOURCE =
  '[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u00a0\\u00ad\\u034f\\u061c\\u115f\\u1160\\u1680\\u17b4\\u17b5' +
  '\\u180b-\\u180f\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u2800\\u3000\\u3164\\ufe00-\\ufe0f' +
  '\\ufeff\\uffa0\\ufff9-\\ufffb\\ufffe\\uffff\\u{1bca0}-\\u{1bca3}\\u{1d173}-\\u{1d17a}' +
  '\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}\\ud800-\\udfff]';

/** Every invisible code point (global, for replacing). */
export const INVISIBLE_CHARS = new RegExp(INVISIBLE_SOURCE, 'gu');

const ONE_INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'u');

/** The first invisible character in `text` (with its index), or undefined. */
export function findInvisible(text: string): { char: string; index: number } | undefined {
  const m = ONE_INVISIBLE.exec(text);
  return m ? { char: m[0], index: m.index } : undefined;
}

/** `U+202E`: how a code point is named when it is shown or reported. */
export function codePointLabel(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
