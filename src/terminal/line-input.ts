import { ApprovalAborted } from '../approval/errors.js';
import type { KeyReader } from './key-reader.js';
import { sanitizeLine } from './sanitize.js';

/** Reads one line of text (printable keys, backspace; Enter ends, Esc gives ''). Ctrl-C aborts. */
export async function readLine(
  keys: KeyReader,
  output: NodeJS.WritableStream,
  prompt: string,
): Promise<string> {
  let text = '';
  for (;;) {
    output.write(`\r\u001b[2K${prompt}${sanitizeLine(text)}`);
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
