import fs from 'node:fs';
import path from 'node:path';

/** Max symlinks followed while resolving one path (Linux uses 40 as well). */
const MAX_SYMLINK_HOPS = 40;

export type RealPathFailure = 'loop' | 'name_too_long' | 'not_a_directory' | 'io';

export class RealPathError extends Error {
  constructor(
    readonly reason: RealPathFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface RealPathResult {
  /** Real path of the target, or of its deepest existing ancestor plus the rest. */
  realPath: string;
  /** lstat of the final entry when it exists (never a symlink: links are followed). */
  stat: fs.Stats | undefined;
  /** Host paths of the symbolic links followed, in order (each one's parent directory real). */
  links: string[];
}

/**
 * Resolves `rest` below the real directory `start` one component at a time,
 * following symlinks by hand. Unlike fs.realpath it also resolves DANGLING
 * symlinks by their target (Node's realpath throws ENOENT there, which is how
 * naive ports end up writing outside their sandbox). Components after the first
 * missing one are appended lexically.
 */
export function resolveRealPath(start: string, rest: readonly string[]): RealPathResult {
  let pending = [...rest];
  let current = start;
  let exists = true;
  let hops = 0;
  let stat: fs.Stats | undefined;
  const links: string[] = [];
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      current = path.dirname(current);
      // After a missing component, resume real resolution once we are back on
      // existing ground, so later symlinks are still followed and judged.
      stat = exists ? undefined : safeLstat(current);
      if (!exists && stat) exists = true;
      continue;
    }
    const next = path.join(current, segment);
    if (!exists) {
      current = next;
      continue;
    }
    if (stat && !stat.isDirectory()) {
      throw new RealPathError('not_a_directory', 'a component of the path is a file, not a directory');
    }
    let entry: fs.Stats;
    try {
      entry = fs.lstatSync(next);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        exists = false;
        stat = undefined;
        current = next;
        continue;
      }
      if (code === 'ENAMETOOLONG') throw new RealPathError('name_too_long', 'a path segment is too long');
      if (code === 'ENOTDIR') {
        throw new RealPathError('not_a_directory', 'a component of the path is a file, not a directory');
      }
      throw new RealPathError('io', `cannot inspect the path (${code ?? 'unknown error'})`);
    }
    if (entry.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS)
        throw new RealPathError('loop', 'too many levels of symbolic links (a loop?)');
      const target = fs.readlinkSync(next);
      links.push(next);
      pending = target.split('/').concat(pending);
      if (path.isAbsolute(target)) current = path.parse(current).root;
      stat = fs.lstatSync(current);
      continue;
    }
    current = next;
    stat = entry;
  }
  return { realPath: current, stat: exists ? (stat ?? safeLstat(current)) : undefined, links };
}

function safeLstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Segment-aware containment: "/a/allowed" contains "/a/allowed/x", not "/a/allowed_evil". */
export function isInsideRoot(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
