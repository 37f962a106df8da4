import { isAscii } from 'node:buffer';

const checked = new WeakMap<Uint8Array, boolean>();

/**
 * Whether a loaded file's bytes are all ASCII (its text is then their latin1 reading,
 * one character per byte). Checked once per buffer: an edit asks twice (to count
 * lines in the bytes, then to write its unchanged ends as they are), and each check
 * is a pass over the whole file. The buffers asked about are never written to.
 */
export function isAsciiData(data: Uint8Array): boolean {
  let ascii = checked.get(data);
  if (ascii === undefined) {
    ascii = isAscii(data);
    checked.set(data, ascii);
  }
  return ascii;
}
