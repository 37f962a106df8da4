import { isAscii } from 'node:buffer';
import { withLatin1Bytes } from '../text/scratch-bytes.js';

const checked = new WeakMap<Uint8Array, boolean>();

/**
 * Whether a loaded file's bytes are all ASCII (its text is then their latin1 reading,
 * one character per byte). Checked once per buffer: an edit asks twice (to count
 * lines in the bytes, then to write its unchanged ends as they are), and each check
 * is a pass over the whole file. The buffers asked about are never written to.
 */
function isAsciiData(data: Uint8Array): boolean {
  let ascii = checked.get(data);
  if (ascii === undefined) {
    ascii = isAscii(data);
    checked.set(data, ascii);
  }
  return ascii;
}

/**
 * Whether a loaded file is all ASCII, from what it holds: its bytes, or (a big ASCII
 * file holds no bytes) its text, which has as many UTF-16 units as the file has bytes
 * only when every character is ASCII.
 */
export function isAsciiFile(file: { text: string; bytes: number; data?: Buffer }): boolean {
  if (file.bytes !== file.text.length) return false;
  return file.data ? isAsciiData(file.data) : true;
}

/**
 * Runs `use` with an ASCII file's bytes (its own, or its text laid out in scratch bytes
 * given back when `use` returns: `use` must keep no view of them), or with undefined.
 */
export function withAsciiBytes<T>(
  file: { text: string; bytes: number; data?: Buffer },
  use: (bytes: Uint8Array | undefined) => T,
): T {
  if (!isAsciiFile(file)) return use(undefined);
  return file.data ? use(file.data) : withLatin1Bytes(file.text, use);
}
