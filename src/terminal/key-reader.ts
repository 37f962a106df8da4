/** Input stream as the UI needs it (process.stdin, or an injected stream in tests). */
export interface KeyInput extends NodeJS.EventEmitter {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  resume(): unknown;
  pause(): unknown;
}

const SEQUENCES: Array<[string, string]> = [
  ['\u001b[A', 'up'],
  ['\u001b[B', 'down'],
  ['\u001b[C', 'right'],
  ['\u001b[D', 'left'],
  ['\u001b[5~', 'pageup'],
  ['\u001b[6~', 'pagedown'],
  ['\u001b[H', 'home'],
  ['\u001b[F', 'end'],
  ['\u001bOA', 'up'],
  ['\u001bOB', 'down'],
];

/** Splits raw input into key names: 'up', 'pagedown', 'enter', 'escape', 'backspace', 'ctrl-c', or the character. */
export function parseKeys(data: string): string[] {
  const keys: string[] = [];
  let i = 0;
  while (i < data.length) {
    const seq = SEQUENCES.find(([s]) => data.startsWith(s, i));
    if (seq) {
      keys.push(seq[1]);
      i += seq[0].length;
      continue;
    }
    const ch = data[i]!;
    i++;
    if (ch === '\u0003') keys.push('ctrl-c');
    else if (ch === '\r' || ch === '\n') keys.push('enter');
    else if (ch === '\u007f' || ch === '\b') keys.push('backspace');
    else if (ch === '\u001b') keys.push('escape');
    else keys.push(ch);
  }
  return keys;
}

/** Reads keys one at a time in raw mode. Always `close()` it: raw mode must never be left on. */
export class KeyReader {
  private readonly queue: string[] = [];
  private waiting: ((key: string) => void) | undefined;
  private readonly onData = (chunk: Buffer | string) => {
    for (const key of parseKeys(chunk.toString())) {
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(key);
      } else this.queue.push(key);
    }
  };

  constructor(private readonly input: KeyInput) {}

  open(): void {
    this.input.setRawMode?.(true);
    this.input.on('data', this.onData);
    this.input.resume();
  }

  next(): Promise<string> {
    const key = this.queue.shift();
    if (key !== undefined) return Promise.resolve(key);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  close(): void {
    this.input.off('data', this.onData);
    this.input.setRawMode?.(false);
    this.input.pause();
  }
}
