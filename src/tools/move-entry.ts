import fs from 'node:fs/promises';
import path from 'node:path';
import { type DirHandle, openDirectoryInside } from '../fs/dir-handle.js';
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

export interface MoveSteps {
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
    try {
      if (overwrite) await fs.rename(a, b);
      else {
        await fs.link(a, b);
        await fs.unlink(a);
      }
    } catch (error) {
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
