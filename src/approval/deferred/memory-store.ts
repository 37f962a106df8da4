import type { DeferredApprovalRecord, DeferredApprovalStore } from './types.js';

/** The default store: one process, records kept as frozen JSON copies. */
export class MemoryDeferredStore implements DeferredApprovalStore {
  private readonly records = new Map<string, string>();

  async putIfAbsent(record: DeferredApprovalRecord): Promise<DeferredApprovalRecord> {
    const known = this.records.get(record.toolCallId);
    if (known !== undefined) return JSON.parse(known);
    this.records.set(record.toolCallId, JSON.stringify(record));
    return JSON.parse(JSON.stringify(record));
  }

  async get(toolCallId: string): Promise<DeferredApprovalRecord | undefined> {
    const known = this.records.get(toolCallId);
    return known === undefined ? undefined : JSON.parse(known);
  }

  async take(toolCallId: string): Promise<DeferredApprovalRecord | undefined> {
    const known = this.records.get(toolCallId);
    this.records.delete(toolCallId);
    return known === undefined ? undefined : JSON.parse(known);
  }

  async delete(toolCallId: string): Promise<void> {
    this.records.delete(toolCallId);
  }

  async prune(now: Date = new Date()): Promise<void> {
    for (const [id, text] of this.records) {
      if (Date.parse((JSON.parse(text) as DeferredApprovalRecord).expiresAt) < now.getTime())
        this.records.delete(id);
    }
  }
}
