import fs from 'node:fs/promises';
import path from 'node:path';
import { type DirHandle, openDirectoryInside } from '../fs/dir-handle.js';
import { assertBound, assertBoundParent, type EntryBinding, lstatEntry } from '../fs/entry-binding.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { toolError } from './tool-error.js';

/** A directory entry addressed inside a mount: a file, or a symbolic link itself. */
export type Entry = Pick<ResolvedPath, 'hostPath' | 'mount' | 'virtualPath'>;

/** The entry's parent directory, held and verified inside its mount (created with `create`). */
export function parentOf(entry: Entry, create = false): Promise<DirHandle> {
  return openDirectoryInside(path.dirname(entry.hostPath), entry.mount.realRoot, {
    create,
    displayPath: entry.virtualPath,
  });
}

export const destinationTaken = (to: Entry) =>
  toolError('invalid_argument', `${to.virtualPath} already exists; pass overwrite: true to replace it.`);

/** The approved source and destination: both held parents and both entries must still be them. */
export interface Bounds {
  source?: EntryBinding;
  destination?: EntryBinding;
}

export interface MoveSteps extends Bounds {
  /** Checks the source entry (by its held-parent path) right before it is moved. */
  verify?: (source: string) => Promise<void>;
  /** Moves across file systems, where rename and link fail; `source` and `target` are held-parent paths. */
  crossDevice: (source: string, target: string) => Promise<void>;
}

/**
 * Moves an entry between held parent directories. Without `overwrite` the
 * destination is claimed with link(2), which fails if it exists (no
 * check-then-rename race) and, on Linux, never follows a symbolic link.
 */
export async function moveEntry(from: Entry, to: Entry, overwrite: boolean, steps: MoveSteps): Promise<void> {
  const source = await parentOf(from);
  let target: DirHandle | undefined;
  try {
    target = await parentOf(to, true);
    const a = source.child(path.basename(from.hostPath));
    const b = target.child(path.basename(to.hostPath));
    await steps.verify?.(a);
    await checkBound(source, a, steps.source);
    await checkBound(target, b, steps.destination);
    let linked = false;
    try {
      if (overwrite) await fs.rename(a, b);
      else {
        await fs.link(a, b);
        linked = true;
        await fs.unlink(a);
      }
    } catch (error) {
      // The new name is in place but the old one cannot go (an immutable file or directory):
      // the new name is taken back, so the failure really changed nothing.
      if (linked) {
        await unlinkOwn(b, a);
        throw error;
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw destinationTaken(to);
      if (code !== 'EXDEV' && code !== 'EPERM') throw error;
      await steps.crossDevice(a, b);
    }
  } finally {
    await source.close();
    await target?.close();
  }
}

/** Removes `name` if it is still the very entry `original` is (the link this move made). */
async function unlinkOwn(name: string, original: string): Promise<void> {
  try {
    const [made, source] = await Promise.all([fs.lstat(name), fs.lstat(original)]);
    if (made.dev === source.dev && made.ino === source.ino) await fs.unlink(name);
  } catch {
    // gone already, or not ours: leave it
  }
}

/** The held directory and the entry in it are the approved ones (checked right before the rename). */
async function checkBound(dir: DirHandle, entry: string, bound: EntryBinding | undefined): Promise<void> {
  if (!bound) return;
  assertBoundParent(bound, await dir.identity(), 'Nothing was changed.');
  assertBound(bound, await lstatEntry(entry), 'Nothing was changed.');
}
