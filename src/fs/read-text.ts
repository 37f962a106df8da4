import { isAscii } from 'node:buffer';
import fs, { type BigIntStats, constants } from 'node:fs';
import { releaseBytes } from '../text/scratch-bytes.js';
import { BriefMemo } from './brief-memo.js';
import { assertFdInside, errnoOf } from './containment.js';
import { closeFd, hashFd, readFdToEnd, SYNC_DATA_MAX } from './fd-io.js';
import { FsError } from './fs-error.js';
import { sha256Hex } from './state-tracker.js';

export interface TextFile {
  /** Decoded UTF-8 text; a BOM is kept (writers preserve it). */
  text: string;
  bytes: number;
  /** SHA-256 of the raw bytes. */
  sha256: string;
  mode: number;
  /**
   * The raw bytes the text was decoded from (kept so nobody has to re-encode or re-hash
   * them). Absent for a big ASCII file: its bytes are its text's characters, held once.
   */
  data?: Buffer;
  /** `dev:ino` of the file read. */
  identity: string;
  born?: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text decoded last, keyed by the SHA-256 of its bytes, kept for a short while:
 * a call that loads a file for its approval and again to run (or a read followed by
 * an edit) decodes it once, so a 40 MB file is not held decoded twice. The same
 * bytes always decode to the same text, so any reader may take it.
 */
const lastDecoded = new BriefMemo<string>();

/** decodeText for bytes whose SHA-256 is known, through the one-entry memo above. */
export function decodeKnown(data: Buffer, sha256: string, displayPath: string): string {
  const known = lastDecoded.get([sha256]);
  if (known !== undefined) return known;
  const text = decodeText(data, displayPath);
  lastDecoded.set([sha256], text);
  return text;
}

/**
 * The bytes of the last big file read, by inode and size, kept for a short while: a
 * call that reads a file for its approval and again to run (to check that it is
 * still the approved file) hashes it the second time a slice at a time and, when
 * the hash is the one kept, takes the kept bytes instead of holding a second copy.
 * A big ASCII file read as text is kept as its text (see heldAsText).
 */
const lastBig = new BriefMemo<FileBytes & { identity: string }>();

/** FileBytes whose buffer the call holding them has just read: nobody else has a view of it yet. */
const justRead = new WeakSet<FileBytes>();

/** A regular file's raw bytes, as read by readFileBytes. */
export interface FileBytes {
  data: Buffer;
  bytes: number;
  /** SHA-256 of the raw bytes. */
  sha256: string;
  mode: number;
  /** `dev:ino` of the file actually read (from fstat of the open descriptor); absent for staged content. */
  identity?: string;
  /** Its birth time in ns, when the file system reports one. */
  born?: string;
  /** The file's text, when that is what was kept of a big ASCII file: `data` is laid out from it when first read. */
  text?: string;
}

/** What a FileBytes says about the file, without its content. */
type FileMeta = Omit<FileBytes, 'data' | 'text'> & { identity: string };

function metaOf(file: FileBytes & { identity: string }): FileMeta {
  return {
    bytes: file.bytes,
    sha256: file.sha256,
    mode: file.mode,
    identity: file.identity,
    ...(file.born === undefined ? {} : { born: file.born }),
  };
}

/**
 * FileBytes of an ASCII file held as its text: the text's latin1 reading is the bytes,
 * so they are laid out again only for a caller that asks for `data` (copy, delete, undo).
 */
function heldAsText(meta: FileMeta, text: string): FileBytes & { identity: string } {
  return holdAsText({ ...meta } as FileBytes & { identity: string }, text);
}

/** `file` turned into heldAsText's form in place (its own buffer is then free to go). */
function holdAsText<F extends FileBytes>(file: F, text: string): F {
  let data: Buffer | undefined;
  file.text = text;
  Object.defineProperty(file, 'data', {
    get: () => {
      data ??= Buffer.from(text, 'latin1');
      return data;
    },
    enumerable: true,
    configurable: true,
  });
  return file;
}

/**
 * Reads a text file without following a leaf symlink and without blocking on
 * FIFOs/devices (O_NONBLOCK, then fstat must say "regular file"), checks that
 * the opened file lies inside the mount, checks its size BEFORE reading, and
 * refuses content that is not UTF-8 text.
 */
export async function readTextFile(
  hostPath: string,
  realRoot: string,
  options: { maxBytes: number; displayPath: string },
): Promise<TextFile> {
  return readFileVersion(
    hostPath,
    realRoot,
    { ...options, releasable: true },
    () => undefined,
    (file) => {
      const text = file.text ?? decodeKnown(file.data, file.sha256, options.displayPath);
      const meta = metaOf(file);
      // UTF-8 has as many bytes as UTF-16 units only when every character is ASCII: the
      // text's characters are then the bytes, and holding both would double the memory.
      if (file.bytes !== text.length || file.bytes <= SYNC_DATA_MAX)
        return { text, ...meta, data: file.data };
      if (justRead.has(file)) {
        const bytes = file.data;
        // What is kept for the next read of this version (see readFileVersion) is the text.
        holdAsText(file, text);
        releaseBytes(bytes);
      }
      return { text, ...meta };
    },
  );
}

/** readTextFile's checks (no symlink, no blocking, inside the mount, size first) without decoding. */
export function readFileBytes(
  hostPath: string,
  realRoot: string,
  options: { maxBytes: number; displayPath: string },
): Promise<FileBytes & { identity: string }> {
  return readFileVersion(
    hostPath,
    realRoot,
    options,
    () => undefined,
    (file) => file,
  );
}

/**
 * readFileBytes with a per-version shortcut: after the same checks and one fstat
 * (bigint: nanosecond times), `reuse` may answer from what it kept for exactly
 * that version (device, inode, size, mtime, ctime) without reading the content;
 * otherwise the file is read and `fresh` builds the answer from its bytes.
 */
export async function readFileVersion<T>(
  hostPath: string,
  realRoot: string,
  options: {
    maxBytes: number;
    displayPath: string;
    /** The bytes read may be given back once decoded (see readTextFile). */
    releasable?: boolean;
  },
  reuse: (stat: BigIntStats) => T | undefined,
  fresh: (file: FileBytes & { identity: string }, stat: BigIntStats) => T,
): Promise<T> {
  const { displayPath } = options;
  let fd: number;
  try {
    fd = fs.openSync(hostPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT') throw new FsError('not_found', `${displayPath} does not exist.`);
    if (code === 'ELOOP')
      throw new FsError(
        'path_not_in_sandbox',
        `${displayPath} became a symbolic link; refusing to follow it.`,
      );
    if (code === 'EISDIR') throw new FsError('not_a_file', `${displayPath} is a directory, not a file.`);
    throw new FsError('io_error', `Cannot open ${displayPath} (${code ?? 'error'}).`);
  }
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    if (!stat.isFile()) {
      throw new FsError(
        'not_a_file',
        `${displayPath} is not a regular file (directory, device, FIFO or socket).`,
      );
    }
    await assertFdInside(fd, hostPath, realRoot, displayPath);
    const size = Number(stat.size);
    if (size > options.maxBytes) {
      throw new FsError(
        'file_too_large',
        `${displayPath} is ${size} bytes; the limit is ${options.maxBytes} bytes.`,
        {
          bytes: size,
          maxBytes: options.maxBytes,
        },
      );
    }
    const kept = reuse(stat);
    if (kept !== undefined) return kept;
    const identity = `${stat.dev}:${stat.ino}`;
    const born = stat.birthtimeNs > 0n ? { born: String(stat.birthtimeNs) } : {};
    const mode = Number(stat.mode) & 0o7777;
    const known = size > SYNC_DATA_MAX ? lastBig.get([identity, size]) : undefined;
    // Same bytes, proven by their hash: the kept copy is this file's content now.
    if (known && (await hashFd(fd, size)) === known.sha256) {
      const meta = { ...metaOf(known), mode, ...born };
      return fresh(
        known.text === undefined ? { ...meta, data: known.data } : heldAsText(meta, known.text),
        stat,
      );
    }
    const buffer = await readFdToEnd(fd, size, options.releasable === true && size > SYNC_DATA_MAX);
    if (buffer.length > options.maxBytes) {
      throw new FsError(
        'file_too_large',
        `${displayPath} grew past the limit of ${options.maxBytes} bytes while being read.`,
      );
    }
    const file = {
      data: buffer,
      bytes: buffer.length,
      sha256: sha256Hex(buffer),
      mode,
      // The bytes hashed are this inode's: execution compares it with the approved file.
      identity,
      ...born,
    };
    justRead.add(file);
    const out = fresh(file, stat);
    justRead.delete(file);
    // After `fresh`, which may have turned `file` into its text (see readTextFile).
    if (file.bytes > SYNC_DATA_MAX) lastBig.set([identity, file.bytes], file);
    return out;
  } finally {
    closeFd(fd);
  }
}

/** UTF-8 text without NUL bytes, or `binary_file`. */
export function decodeText(buffer: Buffer, displayPath: string): string {
  if (buffer.includes(0)) {
    throw new FsError(
      'binary_file',
      `${displayPath} looks binary (it contains NUL bytes); only UTF-8 text files can be used.`,
    );
  }
  // An ASCII buffer's latin1 reading is its UTF-8 reading, and a plain copy: the
  // validating decoder took twice as long on a few-MB source file.
  if (isAscii(buffer)) return buffer.toString('latin1');
  try {
    return decoder.decode(buffer);
  } catch {
    throw new FsError(
      'binary_file',
      `${displayPath} is not valid UTF-8 text; only UTF-8 text files can be used.`,
    );
  }
}
