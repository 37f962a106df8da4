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
 * The safe-patch seed's session state: one counter per toolset, bumped on every
 * read and write, with the last known hash of each file.
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
