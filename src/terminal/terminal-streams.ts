import fs from 'node:fs';
import tty from 'node:tty';
import type { KeyInput } from './key-reader.js';

export type TerminalOutput = NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };

export interface TerminalStreams {
  input: KeyInput;
  output: TerminalOutput;
}

/**
 * Where to ask: a prompt is only shown when both what is read and what is
 * written are a terminal (a prompt written to a file or a pipe would be
 * answered blind). Injected streams are taken as they are; otherwise stdin and
 * stdout, or else the controlling terminal (/dev/tty, as ssh and git do when
 * output is redirected). Undefined: there is nobody to ask.
 */
export function openTerminal(options: {
  input?: KeyInput | undefined;
  output?: TerminalOutput | undefined;
}): TerminalStreams | undefined {
  if (options.input || options.output) {
    const input = options.input ?? process.stdin;
    const output = options.output ?? process.stdout;
    return input.isTTY && output.isTTY ? { input, output } : undefined;
  }
  if (process.stdin.isTTY && process.stdout.isTTY) return { input: process.stdin, output: process.stdout };
  return controllingTerminal();
}

function controllingTerminal(): TerminalStreams | undefined {
  let readFd: number | undefined;
  try {
    readFd = fs.openSync('/dev/tty', 'r');
    const writeFd = fs.openSync('/dev/tty', 'w');
    const input = new tty.ReadStream(readFd);
    const output = new tty.WriteStream(writeFd);
    return input.isTTY && output.isTTY ? { input, output } : undefined;
  } catch {
    if (readFd !== undefined) fs.closeSync(readFd);
    return undefined;
  }
}
