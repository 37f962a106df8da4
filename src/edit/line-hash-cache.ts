/**
 * Line hashes (see LineTable.hashes) of recent file contents, keyed by the SHA-256
 * of the content's bytes: an entry can only ever be used for the exact text it was
 * computed from. edit_lines must hash every line of a file to find its anchors; with
 * this, a series of edits to one file hashes it once, later versions being derived
 * from the edit. Least recently used entries are dropped beyond a memory budget.
 */
export class LineHashCache {
  private readonly entries = new Map<string, Uint32Array>();
  private bytes = 0;

  constructor(private readonly budgetBytes = 16 * 1024 * 1024) {}

  get(sha256: string): Uint32Array | undefined {
    const hashes = this.entries.get(sha256);
    if (hashes) {
      this.entries.delete(sha256);
      this.entries.set(sha256, hashes); // most recently used last
    }
    return hashes;
  }

  set(sha256: string, hashes: Uint32Array): void {
    if (hashes.byteLength > this.budgetBytes) return;
    this.delete(sha256);
    this.entries.set(sha256, hashes);
    this.bytes += hashes.byteLength;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.budgetBytes) break;
      this.delete(oldest);
    }
  }

  private delete(sha256: string): void {
    const hashes = this.entries.get(sha256);
    if (!hashes) return;
    this.bytes -= hashes.byteLength;
    this.entries.delete(sha256);
  }
}

/**
 * The cache every toolset of this process uses. Its entries are keyed by content, so
 * they are the same whichever toolset computed them: a toolset made per request (a
 * web route, an MCP session) finds the hashes and anchors of a file another one read,
 * and a process holds one copy of them, not one per toolset.
 */
export const sharedLineHashes = new LineHashCache(32 * 1024 * 1024);

/** The cache key of a version's shown anchors (see readAnchors), kept beside its line hashes. */
export const shownAnchorsKey = (sha256: string): string => `${sha256}:shown`;
