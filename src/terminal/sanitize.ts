/**
 * Makes any text safe to print: control characters, escape sequences, bidi
 * overrides and zero-width characters are shown visibly, never interpreted, so
 * a file cannot move the cursor, recolour the screen, redraw the prompt or fake
 * a diff line. Tabs are expanded.
 */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

function visible(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (code === 0x1b) return '␛';
  if (code === 0x0d) return '␍';
  if (code === 0x0a) return '␊';
  if (code === 0x7f) return '␡';
  if (code < 0x20) return String.fromCodePoint(0x2400 + code); // ␀ ␁ … control pictures
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

export function sanitizeLine(text: string, tabWidth = 4): string {
  let out = '';
  let column = 0;
  for (const ch of text.replace(UNSAFE, visible)) {
    if (ch === '\t') {
      const n = tabWidth - (column % tabWidth);
      out += ' '.repeat(n);
      column += n;
    } else {
      out += ch;
      column += 1;
    }
  }
  return out;
}

/** Sanitises each line of a multi-line text. */
export function sanitizeLines(text: string): string[] {
  return text.split('\n').map((l) => sanitizeLine(l));
}

/** Cuts a (sanitised) line to `width` columns with a visible marker saying how much is hidden. */
export function fitWidth(line: string, width: number): string {
  const chars = [...line];
  if (chars.length <= width) return line;
  const hidden = chars.length - (width - 1);
  const marker = `…+${hidden}`;
  return chars.slice(0, Math.max(1, width - marker.length)).join('') + marker;
}

/**
 * Drops the first `columns` columns of a (sanitised) line for horizontal
 * scrolling, with a leading marker when something is hidden on the left.
 */
export function shiftLeft(line: string, columns: number): string {
  if (columns <= 0) return line;
  const chars = [...line];
  if (chars.length === 0) return line;
  return `…${chars.slice(Math.min(chars.length, columns + 1)).join('')}`;
}
