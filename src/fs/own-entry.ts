import fs, { type Stats } from 'node:fs';
import { FsError } from './fs-error.js';

/** Device and inode of a file this process created (from fstat of its descriptor). */
export interface OwnFile {
  dev: number;
  ino: number;
}

/**
 * Whether the entry at `entry` is still the regular file we created. A temp file is
 * moved into place by name; another process with write access to the directory can
 * rename something of its own (a link to a file elsewhere, a FIFO) over the temp
 * name meanwhile, and rename(2) would move that in instead. Checked right before
 * (and after) each such rename.
 */
export function isOwnEntry(entry: string, mine: OwnFile): boolean {
  let stat: Stats;
  try {
    stat = fs.lstatSync(entry);
  } catch {
    return false;
  }
  return stat.isFile() && stat.ino === mine.ino && stat.dev === mine.dev;
}

/** The failure when a temp file was replaced by another process; `outcome` says what is on disk now. */
export function tempReplaced(displayPath: string, outcome: string): FsError {
  return new FsError(
    'io_error',
    `Another process replaced the temporary file while ${displayPath} was being written; ${outcome}. Check what else writes to this directory, then try again.`,
  );
}
