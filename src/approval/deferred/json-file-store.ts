import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DeferredApprovalRecord, DeferredApprovalStore } from './types.js';

/**
 * Deferred approvals as JSON files in one directory, for several processes on
 * one machine (or a shared volume): one file per tool call, named by the SHA-256
 * of its id (ids never become paths). Atomicity comes from the file system, not
 * from locks: a record appears whole through link() (fails if it exists) and is
 * claimed through rename() (only one process wins). Give the DeferredApprovals a
 * `secret` when others can write to the directory.
 */
export class JsonFileDeferredStore implements DeferredApprovalStore {
  constructor(readonly directory: string) {}

  private fileOf(toolCallId: string): string {
    return path.join(this.directory, `${createHash('sha256').update(toolCallId).digest('hex')}.json`);
  }

  private temp(kind: string): string {
    return path.join(this.directory, `.${kind}-${process.pid}-${randomBytes(8).toString('hex')}`);
  }

  async putIfAbsent(record: DeferredApprovalRecord): Promise<DeferredApprovalRecord> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const tmp = this.temp('put');
    await fs.writeFile(tmp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
    try {
      await fs.link(tmp, this.fileOf(record.toolCallId));
      return record;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return (await this.get(record.toolCallId)) ?? record;
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }

  async get(toolCallId: string): Promise<DeferredApprovalRecord | undefined> {
    return readRecord(this.fileOf(toolCallId));
  }

  async take(toolCallId: string): Promise<DeferredApprovalRecord | undefined> {
    const claimed = this.temp('take');
    try {
      await fs.rename(this.fileOf(toolCallId), claimed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return await readRecord(claimed);
    } finally {
      await fs.rm(claimed, { force: true });
    }
  }

  async delete(toolCallId: string): Promise<void> {
    await fs.rm(this.fileOf(toolCallId), { force: true });
  }

  async prune(now: Date = new Date()): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const file = path.join(this.directory, name);
      const record = await readRecord(file);
      // Unreadable records authorise nothing either: remove them too.
      if (!record || !(Date.parse(record.expiresAt) >= now.getTime())) await fs.rm(file, { force: true });
    }
  }
}

/** The record in a file; undefined when missing or not a record (a torn or foreign file). */
async function readRecord(file: string): Promise<DeferredApprovalRecord | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const value = JSON.parse(text) as DeferredApprovalRecord;
    return value && typeof value === 'object' && value.v === 1 ? value : undefined;
  } catch {
    return undefined;
  }
}
