import { PassThrough, Writable } from 'node:stream';

/** An injected terminal: keys are typed into `input`, everything written is captured in `text()`. */
export function fakeTty(options: { columns?: number; rows?: number } = {}) {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    rawModes: [] as boolean[],
    setRawMode(mode: boolean) {
      input.rawModes.push(mode);
      return input;
    },
  });
  let captured = '';
  const output = Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        captured += chunk.toString();
        done();
      },
    }),
    { isTTY: true, columns: options.columns ?? 80, rows: options.rows ?? 24 },
  );
  const type = (...keys: string[]) => {
    for (const k of keys) input.write(k);
  };
  const plain = () => captured.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  return {
    input,
    output,
    type,
    text: () => captured,
    plain,
    reset: () => {
      captured = '';
    },
  };
}

/** Types keys once the UI is waiting (after the current microtasks and I/O). */
export function later(fn: () => void, ms = 10): void {
  setTimeout(fn, ms);
}
