/** Number of lines as an editor shows them: "" → 0, "a" → 1, "a\n" → 1, "a\nb" → 2. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** The first `maxLines` lines of text, and whether anything was left out. */
export function firstLines(text: string, maxLines: number): { text: string; truncated: boolean } {
  let index = -1;
  for (let i = 0; i < maxLines; i++) {
    index = text.indexOf('\n', index + 1);
    if (index === -1) return { text, truncated: false };
  }
  return { text: text.slice(0, index + 1), truncated: index + 1 < text.length };
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Strips a UTF-8 BOM and turns CRLF into LF: what models see of a file. */
export function toModelText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.includes('\r\n') ? noBom.replaceAll('\r\n', '\n') : noBom;
}
