import { ApprovalAborted } from '../approval/errors.js';
import { charsFitting, columnsOf, displayWidth } from '../text/display-width.js';
import type { KeyReader } from './key-reader.js';
import { sanitizeLine } from './sanitize.js';
import { visibleLength } from './style.js';

/** A pasted text as part of one line: line breaks become spaces, so a multi-line paste is one note. */
export function pasteAsLine(paste: string): string {
  return paste.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
}

/**
 * Reads one line of text (printable keys, backspace; Enter ends, Esc gives '').
 * A bracketed paste is inserted whole, its line breaks as spaces. Ctrl-C aborts.
 * The text is echoed sanitised, and only its tail when it is longer than the
 * line, so the echo never wraps (a wrapped line cannot be redrawn). Whatever
 * was typed after the Enter is dropped: it belongs to no prompt.
 */
export async function readLine(
  keys: KeyReader,
  output: NodeJS.WritableStream,
  prompt: string,
  width = 80,
  escapes = true,
): Promise<string> {
  let text = '';
  const room = Math.max(10, width - 1 - visibleLength(prompt));
  for (;;) {
    const shown = [...sanitizeLine(text)];
    const tail = shown.length - charsFitting([...shown].reverse(), room - displayWidth('…'));
    const echo = columnsOf(shown) <= room ? shown.join('') : `…${shown.slice(tail).join('')}`;
    // Without escape sequences (TERM=dumb) a trailing blank covers a character just deleted.
    output.write(escapes ? `\r\u001b[2K${prompt}${echo}` : `\r${prompt}${echo} \b`);
    const key = await keys.nextInput();
    if (typeof key !== 'string') {
      text += pasteAsLine(key.paste);
      continue;
    }
    if (key === 'ctrl-c') throw new ApprovalAborted();
    if (key === 'enter') break;
    if (key === 'escape') {
      text = '';
      break;
    }
    if (key === 'backspace') text = [...text].slice(0, -1).join('');
    else if ([...key].length === 1) text += key;
  }
  keys.flush();
  output.write('\n');
  return text.trim();
}
