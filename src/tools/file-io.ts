import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { withFileLock } from '../fs/file-lock.js';
import { readTextFile } from '../fs/read-text.js';
import { sha256Hex } from '../fs/state-tracker.js';
import { NotAFileError, PathNotInSandboxError } from '../sandbox/errors.js';
import { isInsideRoot } from '../sandbox/real-path.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { toolError } from './tool-error.js';
import type { ToolContext } from './types.js';

/** A text file as loaded by a tool: content plus what state checks need. */
export interface LoadedFile {
  text: string;
  bytes: number;
  sha256: string;
  mode: number;
}

/** Largest file a tool may load under this mount. */
export function maxBytesFor(ctx: ToolContext, resolved: ResolvedPath): number {
  return resolved.mount.maxFileBytes ?? ctx.limits.maxFileBytes;
}

/** Loads an existing text file (size, binary and containment checked), or undefined if missing. */
export async function loadFile(ctx: ToolContext, resolved: ResolvedPath): Promise<LoadedFile | undefined> {
  if (resolved.kind === 'missing') return undefined;
  const file = await readTextFile(resolved.hostPath, resolved.mount.realRoot, {
    maxBytes: maxBytesFor(ctx, resolved),
    displayPath: resolved.virtualPath,
  });
  return { text: file.text, bytes: file.bytes, sha256: file.sha256, mode: file.mode };
}

/** Atomically writes text (temp file + rename in the same directory, mode kept). */
export async function saveFile(
  ctx: ToolContext,
  resolved: ResolvedPath,
  text: string,
  mode?: number,
): Promise<{ created: boolean; bytes: number; sha256: string }> {
  ctx.sandbox.checkSize(resolved.virtualPath, Buffer.byteLength(text, 'utf8'));
  const result = await writeFileAtomic(resolved.hostPath, resolved.mount.realRoot, text, {
    ...(mode === undefined ? {} : { mode }),
    createParents: true,
    displayPath: resolved.virtualPath,
  });
  return { created: result.created, bytes: result.bytes, sha256: sha256Hex(text) };
}

/** Runs `fn` while holding the per-file lock of a resolved path (keyed by real host path). */
export function withLock<T>(resolved: ResolvedPath, fn: () => Promise<T>): Promise<T> {
  return withFileLock(resolved.hostPath, fn);
}

/** Re-checks, just before a destructive step, that the parent directory still lies inside the mount. */
async function assertParentInside(resolved: ResolvedPath): Promise<void> {
  const parent = await fs.realpath(path.dirname(resolved.hostPath));
  if (!isInsideRoot(resolved.mount.realRoot, parent)) {
    throw new PathNotInSandboxError(
      `${resolved.virtualPath} moved outside the sandbox while in use; nothing was changed.`,
    );
  }
}

/** Deletes a regular file (never a directory, never through a swapped-in parent symlink). */
export async function removeFile(resolved: ResolvedPath): Promise<void> {
  await assertParentInside(resolved);
  const stat = await fs.lstat(resolved.hostPath);
  if (!stat.isFile())
    throw new NotAFileError(`${resolved.virtualPath} is not a regular file; nothing was deleted.`);
  await fs.unlink(resolved.hostPath);
}

/**
 * Moves a file. Without `overwrite` the destination is claimed with link(2),
 * which fails if it exists (no check-then-rename race); across file systems the
 * content is copied and the source removed.
 */
export async function moveFile(from: ResolvedPath, to: ResolvedPath, overwrite: boolean): Promise<void> {
  await assertParentInside(from);
  await fs.mkdir(path.dirname(to.hostPath), { recursive: true });
  await assertParentInside(to);
  try {
    if (overwrite) {
      await fs.rename(from.hostPath, to.hostPath);
    } else {
      await fs.link(from.hostPath, to.hostPath);
      await fs.unlink(from.hostPath);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw toolError(
        'invalid_argument',
        `${to.virtualPath} already exists; pass overwrite: true to replace it.`,
      );
    if (code !== 'EXDEV' && code !== 'EPERM') throw error;
    const taken = await fs.lstat(to.hostPath).then(
      () => true,
      () => false,
    );
    if (taken && !overwrite)
      throw toolError(
        'invalid_argument',
        `${to.virtualPath} already exists; pass overwrite: true to replace it.`,
      );
    const data = await fs.readFile(from.hostPath);
    const stat = await fs.stat(from.hostPath);
    await writeFileAtomic(to.hostPath, to.mount.realRoot, data, {
      mode: stat.mode & 0o7777,
      createParents: true,
      displayPath: to.virtualPath,
    });
    await fs.unlink(from.hostPath);
  }
}
