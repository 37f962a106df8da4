import type { BigIntStats } from 'node:fs';
import fs from 'node:fs';
import { decodeKnown, decodeText, readFileVersion } from '../fs/read-text.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { maxBytesFor } from './file-io.js';
import { countLines, toModelText } from './text-stats.js';
import type { ToolContext } from './types.js';

/** One version of a file as read_file uses it: decoded once, its lines indexed once. */
export interface ReadVersion {
  text: string;
  bytes: number;
  sha256: string;
  /** The text models see (no BOM, LF endings), its line count and whether the file uses CRLF. */
  modelText: string;
  total: number;
  crlf: boolean;
  /** Offset in modelText where each line starts (built on first use). */
  lineStarts(): Uint32Array;
  /**
   * modelText's latin1 bytes when it is ASCII with LF endings and no BOM: then they
   * are the file's own bytes, kept so a hashed read needs no copy of the text.
   */
  modelBytes?: Buffer;
}

interface Entry {
  key: string;
  version: ReadVersion;
}

/**
 * A change moves ctime (and nobody can set it back), but coarse file-system clocks
 * may give two writes a few ms apart the same ctime. A version whose ctime is this
 * close to the read is not kept, so an entry's key always differs from any later write.
 */
const RACY_NS = 100_000_000n;

/**
 * The versions of recently paged files, keyed by host path and checked against
 * the file's identity (device, inode), size, mtime and ctime on every read:
 * paging through a big file reads and hashes it once, and a file that changed
 * in any way is read again. Least recently used entries are dropped beyond a
 * budget of text.
 */
export class ReadVersionCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(private readonly budgetChars = 64 * 1024 * 1024) {}

  /** The file's current version (from the cache when its key still matches), as loadFile checks it. */
  async load(ctx: ToolContext, resolved: ResolvedPath): Promise<ReadVersion> {
    const hostPath = resolved.hostPath;
    const startNs = BigInt(Date.now()) * 1_000_000n;
    const maxBytes = maxBytesFor(ctx, resolved);
    const kept = (stat: BigIntStats) => {
      const entry = this.entries.get(hostPath);
      if (entry?.key !== keyOf(stat) || !stat.isFile() || Number(stat.size) > maxBytes) return undefined;
      this.entries.delete(hostPath);
      this.entries.set(hostPath, entry); // most recently used last
      return entry.version;
    };
    // A kept version is checked with one lstat of the name (no open, no close), made
    // synchronously as every metadata call is (see fs/fd-io.ts): a thread-pool round trip
    // was most of a page's cost when paging through a big file. Whatever the name leads to
    // now, a match means the same inode, unchanged, whose content was read through the
    // checked path before.
    if (this.entries.has(hostPath)) {
      let stat: BigIntStats | undefined;
      try {
        stat = fs.lstatSync(hostPath, { bigint: true, throwIfNoEntry: false });
      } catch {
        stat = undefined;
      }
      const version = stat && kept(stat);
      if (version) return version;
    }
    return readFileVersion(
      hostPath,
      resolved.mount.realRoot,
      { maxBytes, displayPath: resolved.virtualPath },
      kept,
      (file, stat) => {
        const text = file.text ?? decodeKnown(file.data, file.sha256, resolved.virtualPath);
        const version = versionOf(text, file.bytes, file.sha256, file.data);
        // The bytes serve this read only: kept, they would double the cache's memory.
        const { modelBytes: _, ...kept } = version;
        this.remember(hostPath, stat.ctimeNs < startNs - RACY_NS ? keyOf(stat) : undefined, kept);
        return version;
      },
    );
  }

  /**
   * A staged file's version (the overlay's bytes), kept by their SHA-256 under its host
   * path: read again unchanged, it is not decoded and indexed again. The key cannot
   * match a file on disk (those are keyed by their lstat), so either replaces the other.
   */
  staged(resolved: ResolvedPath, file: { data: Buffer; sha256: string }): ReadVersion {
    const key = `staged:${file.sha256}`;
    const entry = this.entries.get(resolved.hostPath);
    if (entry?.key === key) {
      this.entries.delete(resolved.hostPath);
      this.entries.set(resolved.hostPath, entry); // most recently used last
      return entry.version;
    }
    const text = decodeText(file.data, resolved.virtualPath);
    const version = versionOf(text, file.data.length, file.sha256, file.data);
    const { modelBytes: _, ...kept } = version;
    this.remember(resolved.hostPath, key, kept);
    return version;
  }

  private remember(hostPath: string, key: string | undefined, version: ReadVersion): void {
    this.forget(hostPath);
    if (key === undefined || version.text.length > this.budgetChars) return;
    this.entries.set(hostPath, { key, version });
    this.chars += version.text.length;
    for (const [oldest] of this.entries) {
      if (this.chars <= this.budgetChars) break;
      this.forget(oldest);
    }
  }

  private forget(hostPath: string): void {
    const entry = this.entries.get(hostPath);
    if (!entry) return;
    this.chars -= entry.version.text.length;
    this.entries.delete(hostPath);
  }
}

const keyOf = (s: BigIntStats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

/** A version built from decoded text. */
export function versionOf(text: string, bytes: number, sha256: string, data?: Buffer): ReadVersion {
  const modelText = toModelText(text);
  let starts: Uint32Array | undefined;
  // As many bytes as characters: ASCII (any other character takes more bytes than code units).
  const plainBytes = data !== undefined && data.length === text.length && modelText.length === text.length;
  return {
    ...(plainBytes ? { modelBytes: data } : {}),
    text,
    bytes,
    sha256,
    modelText,
    total: countLines(modelText),
    crlf: text.includes('\r\n'),
    lineStarts() {
      starts ??= lineStartsOf(modelText);
      return starts;
    },
  };
}

function lineStartsOf(text: string): Uint32Array {
  const starts = new Uint32Array(countLines(text) + 1);
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && n < starts.length; i = text.indexOf('\n', i + 1))
    starts[n++] = i + 1;
  for (; n < starts.length; n++) starts[n] = text.length;
  return starts;
}
