const SEQUENCES: Record<string, string> = {
  '\u001b[A': 'up',
  '\u001b[B': 'down',
  '\u001b[C': 'right',
  '\u001b[D': 'left',
  '\u001b[5~': 'pageup',
  '\u001b[6~': 'pagedown',
  '\u001b[H': 'home',
  '\u001b[F': 'end',
  '\u001b[1~': 'home',
  '\u001b[4~': 'end',
  '\u001b[3~': 'delete',
  '\u001bOA': 'up',
  '\u001bOB': 'down',
  '\u001bOC': 'right',
  '\u001bOD': 'left',
  '\u001bOH': 'home',
  '\u001bOF': 'end',
};

/** A whole CSI (`ESC [ params final`) or SS3 (`ESC O x`) sequence, or Alt+letter (`ESC x`). */
const ESCAPE_SEQUENCE = /^\u001b(?:\[[0-9;?]*[\u0040-\u007e]|O.|[a-zA-Z0-9])/;

/**
 * Splits raw input into key names: 'up', 'pagedown', 'enter', 'escape',
 * 'backspace', 'ctrl-c', or the character. Any other escape sequence (F-keys,
 * Ctrl+arrows, Alt+letter) is one 'unknown' key: its bytes must never be read
 * as Esc (= deny) followed by typed text.
 */
export function parseKeys(data: string): string[] {
  const keys: string[] = [];
  let i = 0;
  while (i < data.length) {
    const seq = data[i] === '\u001b' ? ESCAPE_SEQUENCE.exec(data.slice(i))?.[0] : undefined;
    if (seq) {
      keys.push(SEQUENCES[seq] ?? 'unknown');
      i += seq.length;
      continue;
    }
    const ch = String.fromCodePoint(data.codePointAt(i)!);
    i += ch.length;
    if (ch === '\u0003') keys.push('ctrl-c');
    else if (ch === '\r' || ch === '\n') keys.push('enter');
    else if (ch === '\u007f' || ch === '\b') keys.push('backspace');
    else if (ch === '\u001b') keys.push('escape');
    else keys.push(ch);
  }
  return keys;
}
