import fs from 'node:fs/promises';
import path from 'node:path';
import { SandboxError } from '../contract/errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { assertBound, assertBoundParent, type EntryBinding, lstatEntry } from '../fs/entry-binding.js';
import { byteLengthOf, type WriteData } from '../fs/fd-io.js';
import { withFileLock } from '../fs/file-lock.js';
import { decodeText, type FileBytes, readFileBytes, readTextFile } from '../fs/read-text.js';
import { sha256Hex } from '../fs/state-tracker.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { type Bounds, destinationTaken, moveEntry, parentOf } from './move-entry.js';
import { observeVersion } from './shown-versions.js';
import { toolError } from './tool-error.js';
import type { ToolContext } from './types.js';

/** A text file as loaded by a tool: content plus what state checks need. */
export interface LoadedFile {
  text: string;
  bytes: number;
  sha256: string;
  mode: number;
  /** The raw bytes (UTF-8 of text), when loaded from disk: the journal keeps them as they are. */
  data?: Buffer;
  /** `dev:ino` (and birth time) of the file read, when loaded from disk. */
  identity?: string;
  born?: string;
}

/** Largest file a tool may load under this mount. */
export function maxBytesFor(ctx: ToolContext, resolved: ResolvedPath): number {
  // The name's mount and the mount the path really leads to (through links) both limit it.
  const own = resolved.mount.maxFileBytes ?? ctx.limits.maxFileBytes;
  return Math.min(own, resolved.target?.mount.maxFileBytes ?? ctx.limits.maxFileBytes);
}

/**
 * Refuses content larger than the mount's (or the toolset's) maxFileBytes before
 * anything is written: a file the tools could not read back must never be created.
 */
export function checkWriteSize(ctx: ToolContext, resolved: ResolvedPath, content: number | WriteData): void {
  const max = maxBytesFor(ctx, resolved);
  // UTF-8 takes at most 3 bytes per UTF-16 unit: a text that short fits without being measured
  // (measuring a big edited text costs a pass over all of it).
  if (typeof content !== 'number' && upperBound(content) <= max) return;
  const bytes = typeof content === 'number' ? content : byteLengthOf(content);
  if (bytes <= max) return;
  throw new SandboxError(
    'file_too_large',
    `${resolved.virtualPath} would be ${bytes} bytes; files here may be at most ${max} bytes. Nothing was written. Split the content into smaller files.`,
    { details: { bytes, maxFileBytes: max } },
  );
}

const piecesOf = (data: WriteData): ReadonlyArray<string | Buffer> =>
  Array.isArray(data) ? (data as ReadonlyArray<string | Buffer>) : [data as string | Buffer];

/** At least the UTF-8 size of `data`, found without encoding anything. */
function upperBound(data: WriteData): number {
  if (typeof data === 'string') return data.length * 3;
  if (!Array.isArray(data)) return (data as Buffer).length;
  let total = 0;
  for (const piece of data as ReadonlyArray<string | Buffer>) total += upperBound(piece);
  return total;
}

/** Loads an existing text file (size, binary and containment checked), or undefined if missing. */
export async function loadFile(ctx: ToolContext, resolved: ResolvedPath): Promise<LoadedFile | undefined> {
  if (resolved.kind === 'missing') return undefined;
  const staged = ctx.staging?.file(resolved.hostPath);
  if (staged !== undefined) {
    if (staged === null) return undefined;
    const text = decodeText(staged.data, resolved.virtualPath);
    return { text, bytes: staged.data.length, sha256: staged.sha256, mode: staged.mode, data: staged.data };
  }
  const file = await readTextFile(resolved.hostPath, resolved.mount.realRoot, {
    maxBytes: maxBytesFor(ctx, resolved),
    displayPath: resolved.virtualPath,
  });
  // A version of a file the toolset gave anchors for, met by any tool: a change it saw.
  if (file) observeVersion(ctx, resolved.hostPath, file.text);
  return file;
}

/**
 * Loads an existing file's raw bytes (same checks as loadFile, any content), or
 * undefined if missing. For tools that move whole files: copy, move, delete, undo.
 */
export async function loadBytes(ctx: ToolContext, resolved: ResolvedPath): Promise<FileBytes | undefined> {
  if (resolved.kind === 'missing') return undefined;
  const staged = ctx.staging?.file(resolved.hostPath);
  if (staged !== undefined) {
    if (staged === null) return undefined;
    return { data: staged.data, bytes: staged.data.length, sha256: staged.sha256, mode: staged.mode };
  }
  return readFileBytes(resolved.hostPath, resolved.mount.realRoot, {
    maxBytes: maxBytesFor(ctx, resolved),
    displayPath: resolved.virtualPath,
  });
}

/** Atomically writes text or bytes (temp file + rename in the same directory, mode kept). */
export async function saveFile(
  ctx: ToolContext,
  resolved: ResolvedPath,
  text: WriteData,
  mode?: number,
  bound?: EntryBinding,
  /** The caller's CPU work, run while the disk is busy with the write (see writeFileAtomic). */
  whileWriting?: () => void,
  /**
   * `mode` is the file's as it was read, to keep: on disk the file keeps the mode it has when
   * the new version is renamed in (a chmod by anyone since the read, or during the write, stays).
   */
  keepsMode = false,
): Promise<{ created: boolean; bytes: number; sha256: string }> {
  checkWriteSize(ctx, resolved, text);
  if (ctx.staging) {
    refuseStagedThroughLink(ctx, resolved);
    const data = Buffer.isBuffer(text) ? text : Buffer.concat(piecesOf(text).map((p) => Buffer.from(p)));
    const { created } = await ctx.staging.write(resolved, data, mode);
    whileWriting?.();
    return { created, bytes: data.length, sha256: sha256Hex(data) };
  }
  // A string is encoded a slice at a time as it is written (and hashed): no second copy of a big text.
  return writeFileAtomic(resolved.hostPath, resolved.mount.realRoot, text, {
    ...(mode === undefined || keepsMode ? {} : { mode }),
    createParents: true,
    displayPath: resolved.virtualPath,
    ...(bound ? { bound } : {}),
    ...(whileWriting ? { whileSyncing: whileWriting } : {}),
  });
}

/** Runs `fn` while holding the per-file lock of a resolved path (keyed by real host path). */
export function withLock<T>(resolved: ResolvedPath, fn: () => Promise<T>): Promise<T> {
  return withFileLock(resolved.hostPath, fn);
}

/**
 * Deletes a regular file (never a directory), through its held parent directory;
 * with `bound`, that directory and the entry in it must be the approved ones.
 */
export async function removeFile(
  resolved: ResolvedPath,
  bound?: EntryBinding,
  ctx?: ToolContext,
): Promise<void> {
  if (ctx?.staging) return ctx.staging.remove(resolved);
  const dir = await parentOf(resolved);
  try {
    assertBoundParent(bound, await dir.identity(), 'Nothing was deleted.');
    const entry = dir.child(path.basename(resolved.hostPath));
    const stat = await lstatEntry(entry);
    assertBound(bound, stat, 'Nothing was deleted.');
    if (!stat)
      throw new SandboxError('not_found', `${resolved.virtualPath} does not exist; nothing to delete.`);
    if (!stat.isFile())
      throw new SandboxError(
        'not_a_file',
        `${resolved.virtualPath} is not a regular file; nothing was deleted.`,
      );
    await fs.unlink(entry);
  } finally {
    await dir.close();
  }
}

const exists = (p: string) =>
  fs.lstat(p).then(
    () => true,
    () => false,
  );

/** Moves a file between held parent directories; across file systems the content is copied. */
export async function moveFile(
  from: ResolvedPath,
  to: ResolvedPath,
  overwrite: boolean,
  bound: Bounds = {},
  ctx?: ToolContext,
): Promise<void> {
  if (ctx?.staging) {
    refuseStagedThroughLink(ctx, from);
    refuseStagedThroughLink(ctx, to);
    return ctx.staging.move(from, to);
  }
  await moveEntry(from, to, overwrite, {
    ...bound,
    crossDevice: async (a, b) => {
      if (!overwrite && (await exists(b))) throw destinationTaken(to);
      const stat = await fs.stat(a);
      const data = await fs.readFile(a);
      // What the destination held, to put back if the source then cannot be removed.
      const before = await fs.lstat(b).then(
        async (s) => (s.isFile() ? { data: await fs.readFile(b), mode: s.mode & 0o7777 } : undefined),
        () => null,
      );
      const write = (bytes: Buffer, mode: number, binding: EntryBinding | undefined) =>
        writeFileAtomic(to.hostPath, to.mount.realRoot, bytes, {
          mode,
          createParents: true,
          displayPath: to.virtualPath,
          ...(binding ? { bound: binding } : {}),
        });
      const written = await write(data, stat.mode & 0o7777, bound.destination);
      try {
        await fs.unlink(a);
      } catch (error) {
        // The source stays (an immutable file, a directory that refuses): the destination is
        // put back as it was, so the failure really changed nothing.
        if (before === null) await unlinkIfHash(b, written.sha256);
        // (the approved destination is the file just written over: no binding to check again)
        else if (before) await write(before.data, before.mode, undefined).catch(() => undefined);
        throw error;
      }
    },
  });
}

/** Removes a file this call wrote, if it still holds what was written. */
async function unlinkIfHash(file: string, sha256: string): Promise<void> {
  try {
    if (sha256Hex(await fs.readFile(file)) === sha256) await fs.unlink(file);
  } catch {
    // gone already: nothing to take back
  }
}

/** Symbolic links are not staged: a change set holds file contents only. */
/**
 * Staging holds file contents by the name written: a path that leads through a
 * link would show the person one name and change another file on apply.
 */
function refuseStagedThroughLink(ctx: ToolContext, resolved: ResolvedPath): void {
  if (resolved.target.via.length > 0) refuseStagedLink(ctx, resolved.target.via[0]!);
}

export function refuseStagedLink(ctx: ToolContext, virtualPath: string): void {
  if (!ctx.staging) return;
  throw toolError(
    'invalid_argument',
    `${virtualPath} is a symbolic link; links cannot be changed in staging mode (the review holds file contents only). Nothing was staged.`,
  );
}
