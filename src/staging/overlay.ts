import fs from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../fs/state-tracker.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { createPlace } from './create-place.js';

/** A file's state on disk when it was first staged: what apply verifies before writing. */
export interface BaseState {
  exists: boolean;
  data?: Buffer;
  sha256: string | null;
  mode?: number;
  dev?: number;
  ino?: number;
  /** For a file that does not exist yet: where it would be created (see createPlace). */
  place?: string;
}

export interface StagedFile {
  data: Buffer;
  mode: number;
  sha256: string;
}

/** One staged path: its base and its staged content (null: deleted). */
export interface OverlayEntry {
  virtualPath: string;
  hostPath: string;
  mountPoint: string;
  base: BaseState;
  staged: StagedFile | null;
  /** Virtual path this content was moved from (kept through later edits and moves). */
  movedFrom?: string;
  /** Order of first staging, so the change set lists files as the agent touched them. */
  order: number;
}

/**
 * What the file tools see in staging mode instead of the disk. Keyed by real host
 * path (as the file locks are), so two spellings of one file share one entry.
 */
export class StagingOverlay {
  private readonly entries = new Map<string, OverlayEntry>();
  private readonly dirs = new Map<string, string>();
  private readonly dirPlaces = new Map<string, string>();
  private counter = 0;
  private implied: Set<string> | undefined;

  get size(): number {
    return this.entries.size + this.dirs.size;
  }

  /** The staged file at a host path: content, null (deleted) or undefined (not staged). */
  file(hostPath: string): StagedFile | null | undefined {
    const entry = this.entries.get(hostPath);
    return entry ? entry.staged : undefined;
  }

  entry(hostPath: string): OverlayEntry | undefined {
    return this.entries.get(hostPath);
  }

  /** A directory created in staging, or implied by a staged file below it (not on disk yet). */
  isDirectory(hostPath: string): boolean {
    return this.dirs.has(hostPath) || this.impliedDirs().has(hostPath);
  }

  /** Every ancestor of a staged file or directory (the root included; cached until the next change). */
  private impliedDirs(): Set<string> {
    if (this.implied) return this.implied;
    const out = new Set<string>();
    const add = (p: string) => {
      for (let d = path.dirname(p); !out.has(d); d = path.dirname(d)) {
        out.add(d);
        if (path.dirname(d) === d) break;
      }
    };
    for (const e of this.entries.values()) if (e.staged) add(e.hostPath);
    for (const d of this.dirs.keys()) add(d);
    this.implied = out;
    return out;
  }

  all(): OverlayEntry[] {
    return [...this.entries.values()].sort((a, b) => a.order - b.order);
  }

  directories(): { hostPath: string; virtualPath: string; place: string }[] {
    return [...this.dirs].map(([hostPath, virtualPath]) => ({
      hostPath,
      virtualPath,
      place: this.dirPlaces.get(hostPath)!,
    }));
  }

  /** Staged names directly inside a host directory (files and directories). */
  children(hostDir: string): { name: string; directory: boolean; deleted: boolean }[] {
    const out: { name: string; directory: boolean; deleted: boolean }[] = [];
    for (const e of this.entries.values()) {
      if (path.dirname(e.hostPath) === hostDir)
        out.push({ name: path.basename(e.hostPath), directory: false, deleted: e.staged === null });
    }
    const dirs = new Set([...this.dirs.keys(), ...this.impliedDirs()]);
    for (const d of dirs) {
      if (d !== hostDir && path.dirname(d) === hostDir)
        out.push({ name: path.basename(d), directory: true, deleted: false });
    }
    return out;
  }

  async write(resolved: ResolvedPath, data: Buffer, mode: number | undefined): Promise<{ created: boolean }> {
    const entry = await this.touch(resolved);
    this.implied = undefined;
    const created = entry.staged === null;
    entry.staged = {
      data,
      mode: mode ?? entry.staged?.mode ?? entry.base.mode ?? 0o644,
      sha256: sha256Hex(data),
    };
    return { created };
  }

  async remove(resolved: ResolvedPath): Promise<void> {
    const entry = await this.touch(resolved);
    this.implied = undefined;
    entry.staged = null;
    delete entry.movedFrom;
  }

  async move(from: ResolvedPath, to: ResolvedPath): Promise<void> {
    const source = await this.touch(from);
    if (!source.staged) throw new Error(`${from.virtualPath} has no staged content to move`);
    const { data, mode } = source.staged;
    const origin = source.movedFrom ?? from.virtualPath;
    await this.write(to, data, mode);
    const dest = this.entries.get(to.hostPath)!;
    dest.movedFrom = origin;
    await this.remove(from);
  }

  mkdir(hostPath: string, virtualPath: string): void {
    this.dirs.set(hostPath, virtualPath);
    // Where it goes, as when staged: apply refuses it if a directory on the way was swapped.
    if (!this.dirPlaces.has(hostPath)) this.dirPlaces.set(hostPath, createPlace(hostPath));
    this.implied = undefined;
  }

  /** Forgets everything staged. */
  clear(): void {
    this.entries.clear();
    this.dirs.clear();
    this.dirPlaces.clear();
    this.implied = undefined;
  }

  /** The entry of a path, reading its base from disk on first touch. */
  private async touch(resolved: ResolvedPath): Promise<OverlayEntry> {
    const known = this.entries.get(resolved.hostPath);
    if (known) return known;
    const entry: OverlayEntry = {
      virtualPath: resolved.virtualPath,
      hostPath: resolved.hostPath,
      mountPoint: resolved.mount.mountPoint,
      base: await readBase(resolved.hostPath),
      staged: null,
      order: this.counter++,
    };
    if (entry.base.exists)
      entry.staged = { data: entry.base.data!, mode: entry.base.mode!, sha256: entry.base.sha256! };
    this.entries.set(resolved.hostPath, entry);
    return entry;
  }
}

/** Content, hash, mode and identity (dev+ino) of a regular file, or `exists: false`. */
async function readBase(hostPath: string): Promise<BaseState> {
  let stat: import('node:fs').Stats;
  try {
    stat = await fs.lstat(hostPath);
  } catch {
    return { exists: false, sha256: null, place: createPlace(hostPath) };
  }
  if (!stat.isFile()) return { exists: false, sha256: null };
  const data = await fs.readFile(hostPath);
  return {
    exists: true,
    data,
    sha256: sha256Hex(data),
    mode: stat.mode & 0o7777,
    dev: stat.dev,
    ino: stat.ino,
  };
}
