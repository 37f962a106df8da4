import { InputDecoder, type InputEvent, type Paste } from './input-decoder.js';

export { parseKeys } from './key-parse.js';
export type { InputEvent, Paste };

/** Input stream as the UI needs it (process.stdin, or an injected stream in tests). */
export interface KeyInput extends NodeJS.EventEmitter {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  resume(): unknown;
  pause(): unknown;
}

/** Milliseconds since some fixed point; injected in tests. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => performance.now() };

/** How long a prompt must be on screen before a key counts for it. */
export const DEFAULT_ARM_DELAY_MS = 350;

/** How often the event loop's responsiveness is sampled while reading keys. */
const HEARTBEAT_MS = 10;
/** A gap between samples longer than this is a stall: input read after it may be old. */
const STALL_MS = 60;

export interface KeyReaderOptions {
  /** Where paste bracketing is switched on while reading (the terminal's output). */
  output?: NodeJS.WritableStream;
  /** Default true; off for terminals that take no escape sequences (TERM=dumb). */
  bracketedPaste?: boolean;
  clock?: Clock;
  /** Default 350 ms. */
  armDelayMs?: number;
  /** Called each time a prompt is on screen, before it is armed (arming waits for it to return). */
  onArm?: () => void;
}

interface Entry {
  event: InputEvent;
  /** Clock time the bytes arrived. */
  at: number;
}

const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

/**
 * Reads keys in raw mode for approval prompts, so that only a key pressed for
 * the prompt on screen can answer it:
 * - `arm()` (called once a prompt is fully drawn) drops everything typed so far
 *   and ignores keys that arrive within the arming delay after it: type-ahead,
 *   keys pressed while the agent was busy, a second `y` of `yy`;
 * - pastes arrive bracketed (ESC[200~…ESC[201~, switched on while reading) and
 *   are never keys: `next()` drops a paste and everything queued behind it;
 *   line editors get it whole from `nextInput()`.
 * Always `close()` it: raw mode must never be left on. When the input ends
 * (terminal gone), every further read is 'ctrl-c', so no prompt can hang.
 */
export class KeyReader {
  private readonly queue: Entry[] = [];
  private waiting: ((entry: Entry) => void) | undefined;
  private ended = false;
  private armedAt = Number.NEGATIVE_INFINITY;
  private decoder = new InputDecoder();
  private readonly clock: Clock;
  private readonly armDelay: number;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Real time of the last heartbeat, and the last stall seen (real time, never the injected clock). */
  private lastBeat = 0;
  private lastStall: { from: number; to: number } | undefined;
  /** Real time the current prompt's arming delay ends (stalls are judged against it). */
  private armedAtReal = Number.POSITIVE_INFINITY;
  private readonly beat = () => {
    const now = performance.now();
    if (now - this.lastBeat > STALL_MS) {
      // Input read in this loop turn's poll phase (which follows the timers phase) may have
      // waited through the stall; the check phase right after the poll closes that window.
      // Counted in loop turns, not milliseconds: a process descheduled by a busy machine
      // between here and the read must not make old input look new.
      const stall = { from: this.lastBeat, to: now };
      this.lastStall = stall;
      setImmediate(() => {
        if (this.lastStall === stall) this.lastStall = undefined;
      });
    }
    this.lastBeat = now;
  };
  private readonly onData = (chunk: Buffer | string) => {
    const at = this.clock.now();
    const stale = this.readAfterStall();
    // A key read right after a stall may have been typed at any time during it: when the
    // stall began before the prompt was armed, it may be type-ahead and never counts.
    const text = chunk.toString();
    for (const event of this.unbracketedPaste(this.decoder.push(text), text))
      this.deliver({ event, at: stale && event !== 'ctrl-c' ? Number.NEGATIVE_INFINITY : at });
  };
  /**
   * Without bracketed paste (TERM=dumb) a paste is only recognisable as a burst: one read
   * holding more than one key (a typed key, arrows included, is one event per read). Such a
   * chunk becomes a paste, which decides nothing; a Ctrl-C in it still stops.
   */
  private unbracketedPaste(events: InputEvent[], text: string): InputEvent[] {
    if (this.options.bracketedPaste !== false) return events;
    let keys = 0;
    for (const e of events) if (e !== 'ctrl-c') keys++;
    if (keys <= 1) return events;
    return events.includes('ctrl-c') ? [{ paste: text }, 'ctrl-c'] : [{ paste: text }];
  }
  /** Whether input read now may have waited through a stall that began before the arming delay ended. */
  private readAfterStall(): boolean {
    if (this.heartbeat === undefined) return false;
    const now = performance.now();
    const stall = now - this.lastBeat > STALL_MS ? { from: this.lastBeat, to: now } : this.lastStall;
    return stall !== undefined && stall.from < this.armedAtReal;
  }

  private readonly onEnd = () => {
    this.ended = true;
    this.deliver({ event: 'ctrl-c', at: Number.POSITIVE_INFINITY });
  };

  constructor(
    private readonly input: KeyInput,
    private readonly options: KeyReaderOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.armDelay = options.armDelayMs ?? DEFAULT_ARM_DELAY_MS;
  }

  private deliver(entry: Entry): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w(entry);
    } else this.queue.push(entry);
  }

  /**
   * Starts reading. Whatever arrives within the arming delay was typed before
   * anything was on screen (while the agent was busy, or into the editor's
   * last moments) and is dropped.
   */
  open(): void {
    if ((this.input as { readableEnded?: boolean }).readableEnded) this.ended = true;
    this.decoder = new InputDecoder();
    this.flush();
    this.armedAt = this.clock.now() + this.armDelay;
    this.armedAtReal = performance.now() + this.armDelay;
    this.lastBeat = performance.now();
    this.lastStall = undefined;
    // Stalls are measured in real time: an injected clock (tests) has none to measure.
    if (this.clock === systemClock) {
      this.heartbeat = setInterval(this.beat, HEARTBEAT_MS);
      this.heartbeat.unref?.();
    }
    this.input.setRawMode?.(true);
    if (this.options.bracketedPaste !== false) this.options.output?.write(PASTE_ON);
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.resume();
  }

  /** Drops every key and paste received so far, except Ctrl-C (stopping is always honoured). */
  flush(): void {
    const stop = this.queue.find((e) => e.event === 'ctrl-c');
    this.queue.length = 0;
    if (stop) this.queue.push(stop);
  }

  /**
   * The prompt is drawn: arms it once every hook has returned and a fresh
   * event-loop turn has read whatever was typed before (all of it dropped), so
   * a key counts by when it was typed, not by when a busy process got round to
   * reading it. Keys still count only after the arming delay.
   */
  async arm(): Promise<void> {
    this.armedAt = Number.POSITIVE_INFINITY;
    this.armedAtReal = Number.POSITIVE_INFINITY;
    this.flush();
    this.options.onArm?.();
    // Input already in the terminal's buffer (typed before the prompt, or during the hook)
    // is read in the next poll phase; setImmediate runs right after it.
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.rearm();
  }

  private rearm(): void {
    this.flush();
    this.armedAt = this.clock.now() + this.armDelay;
    this.armedAtReal = performance.now() + this.armDelay;
  }

  private take(): Promise<Entry> {
    const entry = this.queue.shift();
    if (entry !== undefined) return Promise.resolve(entry);
    if (this.ended) return Promise.resolve({ event: 'ctrl-c', at: Number.POSITIVE_INFINITY });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /**
   * The next key meant for the armed prompt. Ctrl-C always counts (stopping is
   * always safe); any other key that arrived before the prompt was armed long
   * enough is dropped; a paste is never a key: it and whatever follows it is dropped.
   */
  async next(): Promise<string> {
    for (;;) {
      const { event, at } = await this.take();
      if (event === 'ctrl-c') return event;
      if (typeof event !== 'string') {
        await this.arm();
        continue;
      }
      if (at >= this.armedAt) return event;
    }
  }

  /** The next key or paste, for line editors (a deny note, a search): typed text is wanted here. */
  async nextInput(): Promise<InputEvent> {
    return (await this.take()).event;
  }

  close(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    if (this.options.bracketedPaste !== false) this.options.output?.write(PASTE_OFF);
    this.input.setRawMode?.(false);
    this.input.pause();
  }
}
