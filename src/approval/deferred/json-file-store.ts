import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { withFileLock } from '../../fs/file-lock.js';
import { laterOf, pruned } from './memory-store.js';
import type {
  DeferredApprovalRecord,
  DeferredApprovalStore,
  DeferredEntry,
  DeferredTombstone,
} from './types.js';

/**
 * Deferred approvals as JSON files in one directory, for several processes on
 * one machine: one file per key (a hash, so ids never become paths), holding a
 * record or its tombstone. Every change of a key runs under the cross-process
 * lock of that key (src/fs/process-lock.ts) and lands through rename(), so
 * readers see whole files and N processes claiming one call get it once. Give
 * the DeferredApprovals a `secret` when others can write to the directory.
 *
 * A tombstone is its own file (`<key>.tombstone.json`) beside the record's and
 * wins over it: restoring an old copy of a record file after a claim or a
 * denial does not bring it back (deleting the tombstone as well does, within
 * the record's signed expiry: see docs/approval.md on what a file store can promise).
 */
export class JsonFileDeferredStore implements DeferredApprovalStore {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = path.resolve(directory);
  }

  private fileOf(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error('deferred approval keys are SHA-256 hex digests');
    return path.join(this.directory, `${key}.json`);
  }

  private tombOf(file: string): string {
    return `${file.slice(0, -'.json'.length)}.tombstone.json`;
  }

  /** The tombstone if there is one, else the record (a tombstone is never shadowed by a restored record). */
  private async entryOf(file: string): Promise<DeferredEntry | undefined> {
    return (await readEntry(this.tombOf(file))) ?? (await readEntry(file));
  }

  private async locked<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    const file = this.fileOf(key);
    // Keyed by the directory's real path: two stores over one directory, named through a
    // link or another spelling, take the same lock (else both could claim one call).
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const real = path.join(await fs.realpath(this.directory), path.basename(file));
    return withFileLock(`deferred\0${real}`, () => fn(file));
  }

  private async write(file: string, entry: DeferredEntry): Promise<void> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const tmp = path.join(this.directory, `.put-${process.pid}-${randomBytes(8).toString('hex')}`);
    try {
      await fs.writeFile(tmp, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
      await fs.rename(tmp, file);
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }

  putIfAbsent(key: string, record: DeferredApprovalRecord): Promise<DeferredEntry> {
    return this.locked(key, async (file) => {
      const known = await this.entryOf(file);
      if (known) return known;
      await this.write(file, record);
      return record;
    });
  }

  async get(key: string): Promise<DeferredEntry | undefined> {
    return this.entryOf(this.fileOf(key));
  }

  settle(key: string, tombstone: DeferredTombstone): Promise<DeferredApprovalRecord | undefined> {
    return this.locked(key, async (file) => {
      const known = await this.entryOf(file);
      if (known && 'state' in known) {
        // A later denial (or claim) keeps the id settled for as long as its own tombstone would.
        const later = laterOf(known, tombstone);
        if (later !== known) await this.write(this.tombOf(file), later);
        return undefined;
      }
      // Tombstone first: a crash between the two leaves the tombstone winning.
      await this.write(this.tombOf(file), tombstone);
      await fs.rm(file, { force: true });
      return known;
    });
  }

  async prune(now: Date, keepMs: number): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const keys = new Set(
      names.filter((n) => /^[0-9a-f]{64}(\.tombstone)?\.json$/.test(n)).map((n) => n.slice(0, 64)),
    );
    for (const key of keys) {
      await this.locked(key, async (file) => {
        const tomb = this.tombOf(file);
        const entry = await this.entryOf(file);
        if (!entry) return;
        const next = pruned(entry, now, keepMs);
        if (next === 'keep') return;
        if (next !== undefined) await this.write(tomb, next);
        else await fs.rm(tomb, { force: true });
        await fs.rm(file, { force: true });
      });
    }
  }
}

/**
 * The entry in a file; undefined when missing. A file that is not an entry (torn
 * by hand, foreign) counts as an expired tombstone: it authorises nothing and
 * is never replaced by a fresh record.
 */
async function readEntry(file: string): Promise<DeferredEntry | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const value = JSON.parse(text) as DeferredEntry;
    if (value && typeof value === 'object' && value.v === 1) return value;
  } catch {}
  const at = new Date(0).toISOString();
  return { v: 1, state: 'expired', conversationId: '', toolCallId: '', at, keepUntil: at };
}
