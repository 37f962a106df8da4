import { ApprovalAborted } from '../approval/errors.js';
import type { KeyReader } from './key-reader.js';
import { sanitizeLine } from './sanitize.js';
import { visibleLength } from './style.js';

/**
 * Reads one line of text (printable keys, backspace; Enter ends, Esc gives '').
 * Ctrl-C aborts. The text is echoed sanitised, and only its tail when it is
 * longer than the line, so the echo never wraps (a wrapped line cannot be redrawn).
 */
export async function readLine(
  keys: KeyReader,
  output: NodeJS.WritableStream,
  prompt: string,
  width = 80,
): Promise<string> {
  let text = '';
  const room = Math.max(10, width - 1 - visibleLength(prompt));
  for (;;) {
    const shown = [...sanitizeLine(text)];
    const echo = shown.length <= room ? shown.join('') : `…${shown.slice(-(room - 1)).join('')}`;
    output.write(`\r\u001b[2K${prompt}${echo}`);
    const key = await keys.next();
    if (key === 'ctrl-c') throw new ApprovalAborted();
    if (key === 'enter') break;
    if (key === 'escape') {
      text = '';
      break;
    }
    if (key === 'backspace') text = [...text].slice(0, -1).join('');
    else if ([...key].length === 1) text += key;
  }
  output.write('\n');
  return text.trim();
}
