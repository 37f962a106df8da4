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
  // Keys are typed the way a person does: each batch once a prompt is on screen and armed, after
  // the arming delay has passed (the injected clock jumps ahead). `typeNow` types at once, on the
  // same clock tick: keys pressed while the agent is busy or the prompt is still being drawn.
  const clock = { t: 0, now: () => clock.t };
  const batches: string[][] = [];
  let armedWithoutKeys = false;
  // onPrompt runs before the prompt is armed, and arming then waits for the check phase after
  // it (setImmediate, queued after this one): the keys come in a timer scheduled from the
  // check phase, so always once the prompt is armed.
  const deliver = (keys: string[]) =>
    setImmediate(() =>
      setTimeout(() => {
        clock.t += 1000;
        for (const k of keys) input.write(k);
      }, 0),
    );
  const onPrompt = () => {
    const batch = batches.shift();
    if (batch) deliver(batch);
    else armedWithoutKeys = true;
  };
  /** Types `keys` at the next prompt (one call per prompt or pager screen). */
  const type = (...keys: string[]) => {
    if (armedWithoutKeys) {
      armedWithoutKeys = false;
      deliver(keys);
    } else batches.push(keys);
  };
  const typeNow = (...keys: string[]) => {
    for (const k of keys) input.write(k);
  };
  const plain = () => captured.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  return {
    input,
    output,
    type,
    typeNow,
    clock,
    onPrompt,
    /** Options for terminalApprover / KeyReader wiring this fake terminal and its clock. */
    io: { input, output, clock, onPrompt },
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
