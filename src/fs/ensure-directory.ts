import fs from 'node:fs/promises';
import path from 'node:path';
import { isInsideRoot } from '../sandbox/real-path.js';
import { errnoOf } from './containment.js';
import { FsError } from './fs-error.js';

/**
 * Makes sure `dir` exists as a real directory inside `realRoot`, creating missing
 * levels one at a time. Each existing level is lstat'ed: a symlink is accepted
 * only if its real target is a directory inside the root, so a dangling or
 * outward link can never make us create something outside.
 */
export async function ensureDirectoryInside(
  dir: string,
  realRoot: string,
  options: { create: boolean; displayPath: string },
): Promise<void> {
  if (!isInsideRoot(realRoot, dir)) {
    throw new FsError('path_not_in_sandbox', `${options.displayPath} is outside the sandbox.`);
  }
  const rel = path.relative(realRoot, dir);
  let current = realRoot;
  for (const segment of rel === '' ? [] : rel.split(path.sep)) {
    current = path.join(current, segment);
    let stat: import('node:fs').Stats | undefined;
    try {
      stat = await fs.lstat(current);
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
    }
    if (!stat) {
      if (!options.create)
        throw new FsError('not_found', `The parent directory of ${options.displayPath} does not exist.`);
      try {
        await fs.mkdir(current);
      } catch (error) {
        if (errnoOf(error) !== 'EEXIST') throw error;
      }
      stat = await fs.lstat(current);
    }
    if (stat.isSymbolicLink()) {
      const real = await fs.realpath(current).catch(() => undefined);
      if (!real || !isInsideRoot(realRoot, real)) {
        throw new FsError(
          'path_not_in_sandbox',
          `A directory on the way to ${options.displayPath} leads outside the sandbox.`,
        );
      }
      stat = await fs.stat(real);
    }
    if (!stat.isDirectory()) {
      throw new FsError('not_a_file', `A parent of ${options.displayPath} is a file, not a directory.`);
    }
  }
  const real = await fs.realpath(dir);
  if (!isInsideRoot(realRoot, real)) {
    throw new FsError(
      'path_not_in_sandbox',
      `The directory of ${options.displayPath} leads outside the sandbox.`,
    );
  }
}
