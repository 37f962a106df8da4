import fs from 'node:fs';
import { promisify } from 'node:util';

/**
 * How the file layer talks to the kernel. Metadata calls (open, fstat, lstat,
 * readlink, fchmod, rename, close) are synchronous: on a local disk each takes a
 * few microseconds, while a thread-pool round trip costs 40–100 µs, and a tool
 * call makes about fifteen of them, so going async made a 10k-line edit twice
 * as slow as the edit itself. Moving data stays asynchronous above
 * SYNC_DATA_MAX, and fsync always is, so a big file or a slow disk never holds
 * the event loop for long.
 */
const SYNC_DATA_MAX = 1 << 20;

const readAsync = promisify(fs.read);
const writeAsync = promisify(fs.write);
const fsyncAsync = promisify(fs.fsync);
const readFileAsync = promisify(fs.readFile);

/**
 * A file's content when fstat gave its size: read into one buffer of that size,
 * stopping at that size or at end of file. Size 0 may mean "unknown" (procfs
 * and the like): then the file is read to its end.
 */
export async function readFdToEnd(fd: number, size: number): Promise<Buffer> {
  if (size === 0) return readFileAsync(fd);
  const buffer = Buffer.allocUnsafeSlow(size);
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

/** Writes all of `data` at the descriptor's position. */
export async function writeFdAll(fd: number, data: Buffer): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const want = data.length - done;
    done +=
      want <= SYNC_DATA_MAX
        ? fs.writeSync(fd, data, done, want)
        : (await writeAsync(fd, data, done, want)).bytesWritten;
  }
}

/** fsync, off the event loop: it waits for the disk. */
export function syncFd(fd: number): Promise<void> {
  return fsyncAsync(fd);
}

/** Closes a descriptor, ignoring errors (it may be closed already on a failure path). */
export function closeFd(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed, or the file system refused: nothing left to release
  }
}
