import {
  type DeferredApprovalRecord,
  type DeferredApprovalStore,
  type DeferredEntry,
  type DeferredTombstone,
  isTombstone,
} from './types.js';

/** The default store: one process, entries kept as JSON text (callers only ever get copies). */
export class MemoryDeferredStore implements DeferredApprovalStore {
  private readonly entries = new Map<string, string>();

  async putIfAbsent(key: string, record: DeferredApprovalRecord): Promise<DeferredEntry> {
    const known = this.entries.get(key);
    if (known !== undefined) return JSON.parse(known);
    this.entries.set(key, JSON.stringify(record));
    return JSON.parse(JSON.stringify(record));
  }

  async get(key: string): Promise<DeferredEntry | undefined> {
    const known = this.entries.get(key);
    return known === undefined ? undefined : JSON.parse(known);
  }

  async settle(key: string, tombstone: DeferredTombstone): Promise<DeferredApprovalRecord | undefined> {
    // No await between reading and replacing: one settle at a time gets the record.
    const text = this.entries.get(key);
    const known = text === undefined ? undefined : (JSON.parse(text) as DeferredEntry);
    if (known && isTombstone(known)) {
      // A later denial (or claim) keeps the id settled for as long as its own tombstone would.
      this.entries.set(key, JSON.stringify(laterOf(known, tombstone)));
      return undefined;
    }
    this.entries.set(key, JSON.stringify(tombstone));
    return known;
  }

  async prune(now: Date, keepMs: number): Promise<void> {
    for (const [key, text] of this.entries) {
      const next = pruned(JSON.parse(text) as DeferredEntry, now, keepMs);
      if (next === undefined) this.entries.delete(key);
      else if (next !== 'keep') this.entries.set(key, JSON.stringify(next));
    }
  }
}

/** `known` (state and all), kept until the later of the two tombstones' keepUntil. */
export function laterOf(known: DeferredTombstone, next: DeferredTombstone): DeferredTombstone {
  return Date.parse(next.keepUntil) > Date.parse(known.keepUntil)
    ? { ...known, keepUntil: next.keepUntil }
    : known;
}

/** What pruning makes of an entry: kept, turned into an `expired` tombstone, or dropped (undefined). */
export function pruned(
  entry: DeferredEntry,
  now: Date,
  keepMs: number,
): DeferredTombstone | 'keep' | undefined {
  if (isTombstone(entry)) return Date.parse(entry.keepUntil) >= now.getTime() ? 'keep' : undefined;
  if (Date.parse(entry.expiresAt) >= now.getTime()) return 'keep';
  return {
    v: 1,
    state: 'expired',
    conversationId: String(entry.conversationId ?? ''),
    toolCallId: String(entry.toolCallId),
    at: now.toISOString(),
    keepUntil: new Date(now.getTime() + keepMs).toISOString(),
  };
}
