/**
 * A file as a call resolved it: what an approval binds to. The sandbox builds it
 * (src/sandbox/target.ts); tools and the approval layer only carry and compare it.
 */
export interface FileTarget {
  /** The virtual path named in the call. */
  name: string;
  /** The real virtual path after links. */
  path: string;
  /** Links followed (virtual paths). */
  via: string[];
  /** Mount point of the real path (its mount's policies and scopes apply). */
  mount: string;
  /** `dev:ino` of the file (of the link itself for a link the call acts on); for a missing file, of its deepest existing directory plus the rest of the path. */
  identity: string;
  /** `dev:ino` of the directory holding the file, plus its name: stays the same when the file is rewritten atomically (a new inode), so remembered decisions and rebase chains key on it. */
  slot: string;
  /** Birth time (ns) of the entry when the file system reports it: an inode number reused by a new file or link is not the same file. */
  born?: string;
}
