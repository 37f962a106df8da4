import type { ChangeRecord } from '../contract/change-record.js';

interface JournalEntry extends ChangeRecord {
  /** The content before the change: bytes, or a decoded text (written back as UTF-8, the same bytes). */
  beforeContent: Buffer | string | undefined;
  beforeMode: number | undefined;
  /** The path was a symbolic link with this text before the change (a deleted link). */
  beforeLink: string | undefined;
  /** The change left a symbolic link with this text at the path (a moved or copied link). */
  afterLink: string | undefined;
}

/**
 * Remembers applied changes so the last one can be undone. Before-contents are
 * kept within a byte budget: the oldest are dropped first (their records stay,
 * marked not undoable).
 */
export class ChangeJournal {
  private readonly entries: JournalEntry[] = [];
  private keptBytes = 0;
  private nextId = 1;

  constructor(private readonly budgetBytes: number) {}

  record(change: {
    toolName: string;
    path: string;
    fromPath?: string;
    beforeSha256: string | null;
    afterSha256: string | null;
    beforeContent?: Buffer | string;
    beforeMode?: number;
    beforeLink?: string;
    afterLink?: string;
  }): ChangeRecord {
    const size = sizeOf(change.beforeContent);
    const content =
      change.beforeContent !== undefined && size <= this.budgetBytes ? change.beforeContent : undefined;
    const entry: JournalEntry = {
      id: this.nextId++,
      toolName: change.toolName,
      path: change.path,
      ...(change.fromPath ? { fromPath: change.fromPath } : {}),
      beforeSha256: change.beforeSha256,
      afterSha256: change.afterSha256,
      undoable: change.beforeSha256 === null || content !== undefined || change.beforeLink !== undefined,
      at: new Date().toISOString(),
      beforeContent: content,
      beforeMode: change.beforeMode,
      beforeLink: change.beforeLink,
      afterLink: change.afterLink,
    };
    this.entries.push(entry);
    this.keptBytes += content === undefined ? 0 : size;
    this.evict();
    return toRecord(entry);
  }

  history(): ChangeRecord[] {
    return this.entries.map(toRecord);
  }

  /** The most recent entry with what undo needs (internal to the toolset). */
  last():
    | (ChangeRecord & Pick<JournalEntry, 'beforeContent' | 'beforeMode' | 'beforeLink' | 'afterLink'>)
    | undefined {
    const e = this.entries.at(-1);
    return e
      ? {
          ...toRecord(e),
          beforeContent: e.beforeContent,
          beforeMode: e.beforeMode,
          beforeLink: e.beforeLink,
          afterLink: e.afterLink,
        }
      : undefined;
  }

  /**
   * Drops the entry `id` (after it was undone). By id, not the last: a change made
   * while an undo ran is journalled after it and must stay undoable.
   */
  remove(id: number): void {
    const at = this.entries.findIndex((e) => e.id === id);
    if (at === -1) return;
    const [e] = this.entries.splice(at, 1);
    this.keptBytes -= sizeOf(e!.beforeContent);
  }

  private evict(): void {
    for (const e of this.entries) {
      if (this.keptBytes <= this.budgetBytes) break;
      if (e.beforeContent === undefined) continue;
      this.keptBytes -= sizeOf(e.beforeContent);
      e.beforeContent = undefined;
      e.undoable = e.beforeSha256 === null || e.beforeLink !== undefined;
    }
  }
}

/** Bytes of a kept content (a text counted as UTF-8). */
const sizeOf = (content: Buffer | string | undefined): number =>
  content === undefined
    ? 0
    : typeof content === 'string'
      ? Buffer.byteLength(content, 'utf8')
      : content.length;

function toRecord(e: JournalEntry): ChangeRecord {
  const { beforeContent: _c, beforeMode: _m, beforeLink: _l, afterLink: _a, ...record } = e;
  return record;
}
