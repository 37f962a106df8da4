import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a file that does not exist yet would be created: its real host path and the
 * identity (device and inode) of the deepest directory on the way that exists. Taken
 * when a create is staged and again when it is applied: a directory on the way swapped
 * for another one (an equal copy, a link to an equal directory) gives another place,
 * and the create is refused instead of landing there. Given as a SHA-256: the change
 * set travels to review screens, which must never see host paths.
 */
export function createPlace(hostPath: string): string {
  let dir = path.dirname(hostPath);
  for (;;) {
    try {
      const stat = fs.lstatSync(dir);
      return digest(`${hostPath}\0${stat.dev}:${stat.ino}\0${dir}`);
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return digest(`${hostPath}\0-`);
      dir = up;
    }
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');
