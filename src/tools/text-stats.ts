import { boundaryAtOrBefore } from '../text/text-slices.js';

/** Number of lines as an editor shows them: "" → 0, "a" → 1, "a\n" → 1, "a\nb" → 2. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/**
 * The first `maxLines` lines of text, at most `maxChars` characters (cut between
 * characters), and whether anything was left out.
 */
export function firstLines(
  text: string,
  maxLines: number,
  maxChars = Number.POSITIVE_INFINITY,
): { text: string; truncated: boolean } {
  let end = text.length;
  let index = -1;
  for (let i = 0; i < maxLines; i++) {
    index = text.indexOf('\n', index + 1);
    if (index === -1) break; // fewer lines: all of them
    if (i === maxLines - 1) end = index + 1;
    if (index >= maxChars) break; // past the character cap already
  }
  if (end > maxChars) end = boundaryAtOrBefore(text, maxChars);
  return { text: end === text.length ? text : text.slice(0, end), truncated: end < text.length };
}

/**
 * Each line of `text` longer than `maxChars` cut there (between characters), with
 * how many characters were left out: context shown around a change stays small
 * next to a minified line.
 */
export function withLongLinesCut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return text
    .split('\n')
    .map((line) =>
      line.length <= maxChars
        ? line
        : `${line.slice(0, boundaryAtOrBefore(line, maxChars))} [… ${(line.length - boundaryAtOrBefore(line, maxChars)).toLocaleString('en')} more characters]`,
    )
    .join('\n');
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Strips a UTF-8 BOM and turns CRLF into LF: what models see of a file. */
export function toModelText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.includes('\r\n') ? noBom.replaceAll('\r\n', '\n') : noBom;
}
