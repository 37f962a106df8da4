import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { once } from '../text/once.js';
import { releasableBytes } from '../text/scratch-bytes.js';
import { textSlices } from '../text/text-slices.js';

/**
 * How the file layer talks to the kernel. Metadata calls (open, fstat, lstat,
 * readlink, fchmod, rename, close) are synchronous: on a local disk each takes a
 * few microseconds, while a thread-pool round trip costs 40–100 µs, and a tool
 * call makes about fifteen of them, so going async made a 10k-line edit twice
 * as slow as the edit itself. Moving data stays asynchronous above
 * SYNC_DATA_MAX, and so does the fsync after that much (see syncFdNow), so a
 * big file never holds the event loop for long.
 */
export const SYNC_DATA_MAX = 1 << 20;

const readAsync = promisify(fs.read);
const writeAsync = promisify(fs.write);
const fsyncAsync = promisify(fs.fsync);
const readFileAsync = promisify(fs.readFile);

/**
 * A file's content when fstat gave its size: read into one buffer of that size,
 * stopping at that size or at end of file. Size 0 may mean "unknown" (procfs
 * and the like): then the file is read to its end.
 */
export async function readFdToEnd(fd: number, size: number, releasable = false): Promise<Buffer> {
  if (size === 0) return readFileAsync(fd);
  // Releasable memory for bytes that may be dropped once decoded (a big ASCII file's text
  // holds the same); not by default: element access on it is slower in optimised code.
  const buffer = releasable ? releasableBytes(size) : Buffer.allocUnsafeSlow(size);
  let total = 0;
  while (total < size) {
    const want = size - total;
    const bytesRead =
      want <= SYNC_DATA_MAX
        ? fs.readSync(fd, buffer, total, want, total)
        : (await readAsync(fd, buffer, total, want, total)).bytesRead;
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return total === size ? buffer : buffer.subarray(0, total);
}

/** SHA-256 (hex) of a file's first `size` bytes, read a slice at a time into one small buffer. */
export async function hashFd(fd: number, size: number): Promise<string> {
  const hash = createHash('sha256');
  const slice = Buffer.allocUnsafe(Math.min(size, SYNC_DATA_MAX));
  for (let at = 0; at < size; ) {
    const { bytesRead } = await readAsync(fd, slice, 0, Math.min(slice.length, size - at), at);
    if (bytesRead === 0) break;
    hash.update(slice.subarray(0, bytesRead));
    at += bytesRead;
  }
  return hash.digest('hex');
}

/** Writes all of `data` at the descriptor's position; `sync` writes without the thread pool. */
async function writeFdAll(fd: number, data: Buffer, sync: boolean): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const want = data.length - done;
    done += sync ? fs.writeSync(fd, data, done, want) : (await writeAsync(fd, data, done, want)).bytesWritten;
  }
}

/** What a write takes: bytes, a text (written as UTF-8), or pieces of both, in order. */
export type WriteData = string | Buffer | ReadonlyArray<string | Buffer>;

/** Bytes in `data` (a text's UTF-8 counted without encoding it). */
export function byteLengthOf(data: WriteData): number {
  if (!Array.isArray(data)) return typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.length;
  let total = 0;
  for (const piece of data as ReadonlyArray<string | Buffer>) total += byteLengthOf(piece);
  return total;
}

/**
 * Writes `data` at the descriptor's position and returns its byte count and SHA-256.
 * A long string is encoded a slice at a time into one small buffer, so writing a 40 MB
 * text never holds a 40 MB copy of it; bytes are written as they are (an edit's
 * unchanged head and tail, straight from the file read). A text or bytes written in one
 * piece are hashed only when `sha256` is called: the caller hashes them while fsync
 * waits for the disk, instead of before.
 */
export async function writeFdHashed(
  fd: number,
  data: WriteData,
): Promise<{ bytes: number; sha256: () => string }> {
  const hash = createHash('sha256');
  // Bytes, or a text small enough to encode at once (its exact size, no scratch buffer to collect).
  if (!Array.isArray(data) && (typeof data !== 'string' || data.length <= WHOLE_CHARS)) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : (data as Buffer);
    await writeFdAll(fd, bytes, bytes.length <= SYNC_DATA_MAX);
    return { bytes: bytes.length, sha256: once(() => hash.update(bytes).digest('hex')) };
  }
  const pieces = Array.isArray(data) ? (data as ReadonlyArray<string | Buffer>) : [data as string];
  const small = smallPieces(pieces);
  if (small) {
    // One system call for an edit's head, middle and tail (three writes cost ~0.1 ms more on a small VM).
    writevAllNow(fd, small);
    for (const piece of small) hash.update(piece);
    const digest = hash.digest('hex');
    return { bytes: small.reduce((n, b) => n + b.length, 0), sha256: () => digest };
  }
  let bytes = 0;
  for (const piece of pieces) bytes += await writePiece(fd, piece, hash);
  const digest = hash.digest('hex');
  return { bytes, sha256: () => digest };
}

/** The pieces as bytes when they add up to a small write (else undefined: written one by one). */
function smallPieces(pieces: ReadonlyArray<string | Buffer>): Buffer[] | undefined {
  let chars = 0;
  for (const piece of pieces) {
    chars += piece.length;
    if (chars > SMALL_WRITE_CHARS) return undefined;
  }
  return pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece));
}

/** Characters (at most three bytes each) written at once as one writev. */
const SMALL_WRITE_CHARS = SYNC_DATA_MAX / 3;

/** writev of all of `buffers` on this thread, resumed where a short write stopped. */
function writevAllNow(fd: number, buffers: Buffer[]): void {
  const rest = buffers.filter((b) => b.length > 0);
  let first = 0;
  while (first < rest.length) {
    let done = fs.writevSync(fd, first === 0 ? rest : rest.slice(first));
    while (first < rest.length && done >= rest[first]!.length) done -= rest[first++]!.length;
    if (done > 0) rest[first] = rest[first]!.subarray(done);
  }
}

/** Writes and hashes one piece; returns its byte count. */
async function writePiece(fd: number, piece: string | Buffer, hash: Hash): Promise<number> {
  if (typeof piece !== 'string' || piece.length <= WHOLE_CHARS) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    await writeFdAll(fd, bytes, bytes.length <= SYNC_DATA_MAX);
    hash.update(bytes);
    return bytes.length;
  }
  const slice = Buffer.allocUnsafe(SLICE_CHARS * 3);
  let bytes = 0;
  for (const text of textSlices(piece, SLICE_CHARS)) {
    const encoded = slice.subarray(0, slice.write(text, 0, 'utf8'));
    hash.update(encoded);
    await writeFdAll(fd, encoded, false);
    bytes += encoded.length;
  }
  return bytes;
}

/** Characters encoded per slice (at most three bytes each in UTF-8). */
const SLICE_CHARS = 1 << 18;
/** A text up to this long is encoded in one go: a copy of a few MB costs less than slicing. */
const WHOLE_CHARS = 1 << 22;

/** fsync, off the event loop: it waits for the disk. */
export function syncFd(fd: number): Promise<void> {
  return fsyncAsync(fd);
}

/**
 * fsync on this thread. For a small write that runs alone it costs less than handing
 * the fsync to the thread pool and back (two thread wake-ups, 100–200 µs on a small VM);
 * writes running side by side keep using the pool, where their fsyncs overlap.
 */
export function syncFdNow(fd: number): void {
  fs.fsyncSync(fd);
}

/** Closes a descriptor, ignoring errors (it may be closed already on a failure path). */
export function closeFd(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed, or the file system refused: nothing left to release
  }
}
