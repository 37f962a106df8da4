/** Below this a scratch buffer is an ordinary one: the garbage collector soon takes it back. */
const RELEASE_FROM = 1 << 20;

type Resizable = ArrayBuffer & { resizable?: boolean; resize?: (length: number) => void };

/**
 * `size` bytes whose memory can be given back to the system at once (releaseBytes).
 * A big Buffer that has served its turn (the bytes a string was decoded from) otherwise
 * stays resident until a full garbage collection, adding its size to the peak of the
 * operation that made it. A resizable ArrayBuffer shrunk to nothing frees its pages at
 * once; an engine without resizable buffers ignores the option, and release does nothing.
 * For bytes that native code reads and writes (copies, decoding, hashing, file I/O): a
 * JavaScript loop over their elements runs several times slower than over a plain Buffer.
 */
export function releasableBytes(size: number): Buffer {
  if (size < RELEASE_FROM) return Buffer.allocUnsafeSlow(size);
  const memory = new (ArrayBuffer as new (n: number, o: object) => ArrayBuffer)(size, {
    maxByteLength: size,
  });
  return Buffer.from(memory, 0, size);
}

/** Gives back the memory of bytes from releasableBytes: every view of them is empty afterwards. */
export function releaseBytes(bytes: Uint8Array): void {
  const memory = bytes.buffer as Resizable;
  if (memory.resizable === true) memory.resize?.(0);
}

/**
 * Runs `use` on `size` scratch bytes, given back as soon as `use` returns. `use` must
 * return a copy (a string, a count), never a view of the bytes: it is empty afterwards.
 */
export function withScratchBytes<T>(size: number, use: (bytes: Buffer) => T): T {
  const bytes = size < RELEASE_FROM ? Buffer.allocUnsafe(size) : releasableBytes(size);
  try {
    return use(bytes);
  } finally {
    releaseBytes(bytes);
  }
}
