import { createHash } from 'node:crypto';
import { textSlices } from '../text/text-slices.js';

/** Strings are hashed a slice at a time: hashing one whole converts it to a full-size UTF-8 copy first. */
const STRING_SLICE = 1 << 20;

/** SHA-256 (hex) of bytes, or of a string's UTF-8. */
export function sha256Hex(data: string | Buffer): string {
  const hash = createHash('sha256');
  if (typeof data !== 'string' || data.length <= STRING_SLICE) return hash.update(data).digest('hex');
  for (const slice of textSlices(data, STRING_SLICE)) hash.update(slice);
  return hash.digest('hex');
}

export interface VersionedState {
  path: string;
  version: number;
  sha256: string;
}

/**
 * Session state of a toolset: one counter, bumped on every read and write, and
 * the last known hash of each file, so a model can tell which of two results is
 * newer and a change based on an old read is refused (state_mismatch).
 */
export class StateTracker {
  private counter = 0;
  private readonly latest = new Map<string, VersionedState>();

  nextVersion(): number {
    this.counter += 1;
    return this.counter;
  }

  record(virtualPath: string, sha256: string): VersionedState {
    const state = { path: virtualPath, version: this.nextVersion(), sha256 };
    this.latest.set(virtualPath, state);
    return state;
  }

  /** The counter now: a read takes it before it loads, to tell whether a change was recorded meanwhile. */
  now(): number {
    return this.counter;
  }

  /**
   * A read's state, loaded after `since` (the counter when it began). Reads take no
   * lock: one that opened the file before a parallel write's rename ends after the
   * write was recorded. When a different state of the file was recorded meanwhile, the
   * read showed an older one: it is numbered as of its start (below the write's
   * version, so a higher version stays newer) and does not become the latest.
   */
  recordRead(virtualPath: string, sha256: string, since: number): VersionedState {
    const latest = this.latest.get(virtualPath);
    if (latest && latest.version > since && latest.sha256 !== sha256)
      return { path: virtualPath, version: since, sha256 };
    return this.record(virtualPath, sha256);
  }

  last(virtualPath: string): VersionedState | undefined {
    return this.latest.get(virtualPath);
  }
}
