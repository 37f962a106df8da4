import { parseKeys } from './key-parse.js';

/** Text the terminal delivered as one bracketed paste (never a key press). */
export interface Paste {
  paste: string;
}

/** One input event: a key name (see `parseKeys`) or a paste. */
export type InputEvent = string | Paste;

export const PASTE_START = '\u001b[200~';
export const PASTE_END = '\u001b[201~';

/**
 * Longest tail of `text` (at least `min` characters) that is a proper prefix of
 * `marker`: a marker split across chunks. Outside a paste a lone ESC is the Esc
 * key, so only two or more characters are held back there.
 */
function partialMarker(text: string, marker: string, min: number): number {
  for (let n = Math.min(marker.length - 1, text.length); n >= min; n--) {
    if (marker.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}

/**
 * Turns raw terminal input, chunk by chunk, into key names and pastes. A
 * bracketed paste (ESC[200~ … ESC[201~, sent by the terminal while paste
 * bracketing is on) is one `Paste` event however many chunks it spans and
 * whatever it contains, so pasted letters and newlines can never act as keys.
 */
export class InputDecoder {
  private pending = '';
  private pasting: string | undefined;

  push(chunk: string): InputEvent[] {
    let data = this.pending + chunk;
    this.pending = '';
    const events: InputEvent[] = [];
    while (data) {
      if (this.pasting !== undefined) {
        const end = data.indexOf(PASTE_END);
        if (end === -1) {
          const keep = partialMarker(data, PASTE_END, 1);
          this.pasting += data.slice(0, data.length - keep);
          this.pending = data.slice(data.length - keep);
          return events;
        }
        events.push({ paste: this.pasting + data.slice(0, end) });
        this.pasting = undefined;
        data = data.slice(end + PASTE_END.length);
        continue;
      }
      const start = data.indexOf(PASTE_START);
      if (start === -1) {
        const keep = partialMarker(data, PASTE_START, 2);
        for (const e of parseKeys(data.slice(0, data.length - keep))) events.push(e);
        this.pending = data.slice(data.length - keep);
        return events;
      }
      for (const e of parseKeys(data.slice(0, start))) events.push(e);
      this.pasting = '';
      data = data.slice(start + PASTE_START.length);
    }
    return events;
  }
}
