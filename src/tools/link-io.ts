import fs from 'node:fs/promises';
import path from 'node:path';
import { assertBound, assertBoundParent, type EntryBinding, lstatEntry } from '../fs/entry-binding.js';
import { tempFileName } from '../fs/temp-name.js';
import type { ResolvedLink } from '../sandbox/symlink.js';
import { type Bounds, destinationTaken, type Entry, moveEntry, parentOf } from './move-entry.js';
import { toolError } from './tool-error.js';

// Operations on a symbolic link itself (rm, mv, cp -P): the entry is named
// through its held parent directory and never followed, so the file it points
// to is neither read nor changed.

/** Is the entry still the link that was checked (same text)? Refuses to act on anything else. */
async function sameLink(entry: string, link: ResolvedLink): Promise<void> {
  const text = await fs.readlink(entry).catch(() => undefined);
  if (text !== link.linkText)
    throw toolError(
      'stale_approval',
      `${link.virtualPath} changed while it was being changed; nothing was done.`,
    );
}

/** rm of the link entry; with `bound`, its held directory and the link's own inode must be the approved ones. */
export async function removeLink(link: ResolvedLink, bound?: EntryBinding): Promise<void> {
  const dir = await parentOf(link);
  try {
    assertBoundParent(bound, await dir.identity(), 'Nothing was deleted.');
    const entry = dir.child(path.basename(link.hostPath));
    await sameLink(entry, link);
    assertBound(bound, await lstatEntry(entry), 'Nothing was deleted.');
    await fs.unlink(entry);
  } finally {
    await dir.close();
  }
}

/** Creates a link with `text` at `to` (replacing what is there only with `overwrite`). */
export async function createLink(
  text: string,
  to: Entry,
  overwrite: boolean,
  bound?: EntryBinding,
): Promise<void> {
  const dir = await parentOf(to, true);
  try {
    assertBoundParent(bound, await dir.identity(), 'Nothing was changed.');
    const target = dir.child(path.basename(to.hostPath));
    if (!overwrite) {
      await fs.symlink(text, target).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EEXIST' ? destinationTaken(to) : error;
      });
      return;
    }
    const temp = dir.child(tempFileName(path.basename(to.hostPath)));
    await fs.symlink(text, temp);
    try {
      assertBound(bound, lstatEntry(target), 'Nothing was changed.');
      await fs.rename(temp, target);
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
  } finally {
    await dir.close();
  }
}

/** Moves the link entry (mv): renamed when possible, recreated across file systems. */
export async function moveLink(
  link: ResolvedLink,
  to: Entry,
  overwrite: boolean,
  bound: Bounds = {},
): Promise<void> {
  await moveEntry(link, to, overwrite, {
    ...bound,
    verify: (a) => sameLink(a, link),
    crossDevice: async (a) => {
      await createLink(link.linkText, to, overwrite, bound.destination);
      await fs.unlink(a);
    },
  });
}
