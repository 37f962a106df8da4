import fs, { type BigIntStats } from 'node:fs';
import { errnoOf } from './containment.js';
import { FsError } from './fs-error.js';

/**
 * What execution must find on disk, through descriptors it holds, for one
 * approved target: the identity of the directory that holds the entry (when it
 * existed at approval) and the entry's own identity (null: it must still be missing).
 */
export interface EntryBinding {
  /** `dev:ino` of the parent directory; undefined when the parent did not exist yet. */
  parent: string | undefined;
  /** `dev:ino` of the entry itself, or null when the approval was for creating it. */
  entry: string | null;
  born?: string;
  /** The approved file's path, for messages. */
  path: string;
}

/** Why a stat taken through a held descriptor is not the bound entry (undefined: it is). */
function bindingMismatch(binding: EntryBinding, stat: BigIntStats | undefined): string | undefined {
  if (binding.entry === null)
    return stat ? `${binding.path} was created by someone else after it was approved` : undefined;
  if (!stat) return `${binding.path} was removed after it was approved`;
  const born = stat.birthtimeNs > 0n ? String(stat.birthtimeNs) : undefined;
  if (
    `${stat.dev}:${stat.ino}` !== binding.entry ||
    (binding.born !== undefined && born !== undefined && binding.born !== born)
  )
    return `${binding.path} was replaced by another file after it was approved`;
  return undefined;
}

/** lstat of an entry addressed through a held directory (undefined: missing). */
export function lstatEntry(entry: string): BigIntStats | undefined {
  try {
    return fs.lstatSync(entry, { bigint: true });
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Refuses, as `stale_approval`, an entry that is not the bound one. */
export function assertBound(
  binding: EntryBinding | undefined,
  stat: BigIntStats | undefined,
  what: string,
): void {
  if (!binding) return;
  const why = bindingMismatch(binding, stat);
  if (why)
    throw new FsError(
      'stale_approval',
      `${why}, so the approved change was not applied (the user approved it for another file). ${what} Make the call again to have it approved as it is.`,
    );
}

/** Refuses a held directory that is not the approved file's parent (a directory swapped in by another process). */
export function assertBoundParent(binding: EntryBinding | undefined, identity: string, what: string): void {
  if (binding?.parent === undefined || binding.parent === identity) return;
  throw new FsError(
    'stale_approval',
    `A directory on the way to ${binding.path} was replaced after it was approved, so the approved change was not applied. ${what} Make the call again to have it approved as it is.`,
  );
}
