import { SandboxError } from '../contract/errors.js';
import { assertBound, type EntryBinding, lstatEntry } from '../fs/entry-binding.js';
import { sha256Hex } from '../fs/state-tracker.js';
import type { AccessKind, ResolvedPath, Sandbox } from '../sandbox/sandbox.js';
import { type FileTarget, fileTargetOf, type ResolvedTarget, targetChange } from '../sandbox/target.js';
import type { LoadedFile } from './file-io.js';
import { toolError } from './tool-error.js';
import type { FileState, ToolContext } from './types.js';

/** SHA-256 of the empty string: the base to give when creating a file. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export interface LatestFileState extends FileState {
  /** Full content (as models see it) when under the read cap. */
  content?: string;
  /** How to get the content when it was too large to include. */
  hint?: string;
}

/** What state checks need of a file: its hash, and its text when it was loaded as text. */
type KnownFile = Pick<LoadedFile, 'sha256'> & { text?: string };

/** Records a new version for the file and returns its state, with content when small enough. */
export function latestState(
  ctx: ToolContext,
  virtualPath: string,
  file: KnownFile | undefined,
): LatestFileState {
  const sha256 = file?.sha256 ?? EMPTY_SHA256;
  const state: LatestFileState = { ...ctx.state.record(virtualPath, sha256) };
  if (file && file.text === undefined) return state; // loaded as bytes (move/copy/delete): no content
  if (ctx.sandbox.needsReadApproval(virtualPath)) {
    // Reading this file needs the person's approval: no result or error carries its content.
    state.hint = `Its content is not included: reading ${virtualPath} needs the user's approval; use read_file.`;
    return state;
  }
  const text = file?.text ?? '';
  if (text.length <= ctx.limits.readMaxChars) {
    const bare = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    state.content = bare.includes('\r') ? bare.replaceAll('\r\n', '\n') : bare;
  } else state.hint = `The file is large; page through it with read_file(path="${virtualPath}", offset=…).`;
  return state;
}

/** Refuses with `state_mismatch` when the caller's base hash is not the file's current hash. */
export function checkBaseSha256(
  ctx: ToolContext,
  virtualPath: string,
  baseSha256: string | undefined,
  current: LoadedFile | undefined,
): void {
  if (baseSha256 === undefined) return;
  const actual = current?.sha256 ?? EMPTY_SHA256;
  if (baseSha256.toLowerCase() === actual) return;
  throw toolError(
    'state_mismatch',
    `State mismatch: ${virtualPath} has changed since the version you based this change on (base_sha256 ${baseSha256.slice(0, 12)}…, current ${actual.slice(0, 12)}…). Nothing was written. Use latest_file_state below and redo the change against it.`,
    { details: { latest_file_state: latestState(ctx, virtualPath, current) } },
  );
}

/**
 * Binds execution to what the user approved: the file must still have the
 * SHA-256 shown in the approval payload (null = it must still not exist).
 */
export function checkApprovedState(
  ctx: ToolContext,
  virtualPath: string,
  approved: string | null | undefined,
  current: KnownFile | undefined,
): void {
  if (approved === undefined) return;
  const actual = current?.sha256 ?? null;
  if (approved === actual) return;
  throw toolError(
    'stale_approval',
    `${virtualPath} changed after the user approved this change, so it was not applied (the user approved a different file state). Nothing was written. Re-read the file and make the call again.`,
    { details: { latest_file_state: latestState(ctx, virtualPath, current) } },
  );
}

/**
 * What edit_lines resolves anchors against for a file (its real path; null: none yet),
 * as a SHA-256: the hashed read held and the latest version known. Another hashed read
 * changes it even when the file did not change (the read held is then another one).
 */
export function anchorsState(ctx: ToolContext, hostPath: string): string | null {
  const snapshot = ctx.anchors.get(hostPath);
  if (snapshot === undefined) return null;
  const read = ctx.earlierAnchors.get(hostPath)?.text;
  return read === undefined ? sha256Hex(snapshot) : sha256Hex(`${sha256Hex(read)}:${sha256Hex(snapshot)}`);
}

/**
 * Binds edit_lines to the read its anchors were resolved against when the user
 * approved: another hashed read in between (same file content or not) would
 * move the anchors to other lines than the ones shown.
 */
export function checkApprovedAnchors(
  ctx: ToolContext,
  resolved: ResolvedPath,
  current: KnownFile | undefined,
): void {
  const { virtualPath } = resolved;
  const approved = ctx.approvedAnchorsSha256;
  if (approved === undefined || anchorsState(ctx, resolved.hostPath) === approved) return;
  throw toolError(
    'stale_approval',
    `${virtualPath} was read again with hashes after the user approved this edit, so its anchors would resolve against a different read than the one the user was shown. Nothing was written. Re-read the file with hashes and make the call again.`,
    { details: { latest_file_state: latestState(ctx, virtualPath, current) } },
  );
}

/** An entry as resolved now: a file (with where its name leads) or a link the call acts on itself. */
export interface TargetEntry {
  virtualPath: string;
  hostPath: string;
  mount: { mountPoint: string };
  /** Where the name leads; a string for a link the call acts on itself (nothing followed). */
  target?: ResolvedTarget | string;
}

/**
 * Binds execution to the FILE the user approved, not to its name: under the file
 * lock the entry is resolved again and must lead to the same real path, through
 * the same links, to the same file (identity), as when the payload was built.
 */
export function checkApprovedTarget(
  ctx: ToolContext,
  role: 'path' | 'destination',
  entry: TargetEntry,
): void {
  const approved: FileTarget | undefined = ctx.approvedTargets?.[role];
  if (!approved) return;
  const why = targetChange(approved, fileTargetOf(entry));
  if (!why) return;
  throw toolError(
    'stale_approval',
    `${why}, so the approved change was not applied (the user approved it for another file). Nothing was written. Make the call again to have it approved as it is.`,
  );
}

/**
 * sandbox.resolve for an execution. An approved file that is now gone, or not a
 * regular file (a FIFO, a socket, a directory …), was removed or replaced after it was
 * approved: the call is refused as `stale_approval`, like any other replacement, not
 * as the model's mistake.
 */
export function resolveApproved(
  ctx: ToolContext,
  role: 'path' | 'destination',
  path: string,
  access: AccessKind,
): ResolvedPath {
  try {
    return ctx.sandbox.resolve(path, access);
  } catch (error) {
    const approved = ctx.approvedTargets?.[role];
    const existed = approved !== undefined && !approved.identity.startsWith('missing ');
    const code = error instanceof SandboxError ? error.code : undefined;
    const swapped = approved !== undefined && code === 'not_a_file';
    if (swapped || (existed && code === 'not_found')) {
      const what =
        code === 'not_found'
          ? 'was removed'
          : existed
            ? 'was replaced by something that is not a regular file'
            : 'was created by someone else (not as a regular file)';
      throw toolError(
        'stale_approval',
        `${approved.name} ${what} after it was approved, so the approved call was not run (the user approved it for the file that was there). Nothing was changed. Make the call again to have it approved as it is.`,
      );
    }
    throw error;
  }
}

/**
 * A path a call would create (a directory, a moved tree's new name), as it resolves
 * now, to bind an approval to; undefined where a write resolution does not apply
 * (e.g. a mount's suffix rules), and the call is then bound by its other checks.
 */
export function targetToCreate(sandbox: Sandbox, virtualPath: string): FileTarget | undefined {
  try {
    return fileTargetOf(sandbox.resolve(virtualPath, 'write'));
  } catch {
    return undefined;
  }
}

/**
 * Runs an execution's load of an approved file. When it fails (a binary file, one
 * too large, something that is not a file …) on what is no longer the approved file,
 * the file was replaced after the approval: `stale_approval`, not the model's mistake.
 */
export async function loadingApproved<T>(
  ctx: ToolContext,
  role: 'path' | 'destination',
  resolved: { hostPath: string },
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const bound = boundEntry(ctx, role);
    if (bound?.entry) assertBound(bound, await lstatEntry(resolved.hostPath), 'Nothing was changed.');
    throw error;
  }
}

/**
 * What execution must find through the descriptors it holds for an approved
 * target (undefined: nothing was approved for that role, e.g. pre-approved).
 */
export function boundEntry(ctx: ToolContext, role: 'path' | 'destination'): EntryBinding | undefined {
  const target = ctx.approvedTargets?.[role];
  if (!target) return undefined;
  const cut = target.slot.indexOf('/');
  const rest = cut < 0 ? '' : target.slot.slice(cut + 1);
  const parent = cut > 0 && rest !== '' && !rest.includes('/') ? target.slot.slice(0, cut) : undefined;
  const missing = target.identity.startsWith('missing ');
  return {
    parent,
    entry: missing ? null : target.identity,
    ...(target.born === undefined || missing ? {} : { born: target.born }),
    path: target.path,
  };
}

/** Both approved ends of a move, for the held-directory checks right before the rename. */
export function bounds(ctx: ToolContext): { source?: EntryBinding; destination?: EntryBinding } {
  const source = boundEntry(ctx, 'path');
  const destination = boundEntry(ctx, 'destination');
  return { ...(source ? { source } : {}), ...(destination ? { destination } : {}) };
}

/**
 * The bytes just hashed must be the approved file's: the read descriptor's
 * fstat identity is compared, so a same-bytes file exchanged in by another
 * process (or under a swapped directory) is refused.
 */
export function checkReadIdentity(
  ctx: ToolContext,
  role: 'path' | 'destination',
  virtualPath: string,
  read: { identity?: string; born?: string } | undefined,
): void {
  const bound = boundEntry(ctx, role);
  if (!bound || !read?.identity || bound.entry === null) return;
  const reborn = bound.born !== undefined && read.born !== undefined && bound.born !== read.born;
  if (read.identity === bound.entry && !reborn) return;
  throw toolError(
    'stale_approval',
    `${virtualPath} was replaced by another file after it was approved, so the approved change was not applied (the user approved it for another file). Nothing was written. Make the call again to have it approved as it is.`,
  );
}

/** The payload field saying where a path really leads, when links are on the way. */
export function resolvedField(entry: TargetEntry): { resolved?: { path: string; via: string[] } } {
  const t = typeof entry.target === 'object' ? entry.target : undefined;
  return t && t.via.length > 0 ? { resolved: { path: t.virtualPath, via: [...t.via] } } : {};
}

/** Appended to a payload description when the write goes through links, so every view says where it lands. */
export function throughLinks(entry: TargetEntry): string {
  const t = typeof entry.target === 'object' ? entry.target : undefined;
  return t && t.via.length > 0
    ? ` — through the link ${t.via.join(' → ')}: the real file is ${t.virtualPath}`
    : '';
}
