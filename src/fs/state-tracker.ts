import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
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

  last(virtualPath: string): VersionedState | undefined {
    return this.latest.get(virtualPath);
  }
}
