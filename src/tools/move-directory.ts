import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ApprovalResult } from '../contract/approval-types.js';
import { SandboxError } from '../contract/errors.js';
import type { MovePayload } from '../contract/payloads.js';
import { withFileLock } from '../fs/file-lock.js';
import { isTempFileName } from '../fs/temp-name.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { linkTarget, OUTSIDE_THE_SANDBOX, resolveLink } from '../sandbox/symlink.js';
import { fileTargetOf } from '../sandbox/target.js';
import { codePointLabel, INVISIBLE_CHARS } from '../text/invisible-chars.js';
import { blockedFrom } from './apply-write.js';
import { checkApprovedTarget, resolveApproved, targetToCreate } from './file-state.js';
import { parentOf } from './move-entry.js';
import { toolError } from './tool-error.js';
import type { TransferInput, TransferOutput } from './transfer.js';
import type { ToolContext } from './types.js';

/** Entries shown in a directory move's payload; the count is always complete. */
const LISTED_ENTRIES = 1_000;
/** A directory with more entries than this is not moved in one call. */
const MAX_ENTRIES = 100_000;

interface DirectoryMove {
  from: ResolvedPath;
  to: Pick<ResolvedPath, 'virtualPath' | 'hostPath' | 'mount'>;
  /** Paths relative to the moved directory, sorted; directories end with "/". */
  entries: string[];
  /** Symbolic links in the tree (up to the listed number) and the text they hold. */
  links: Array<{ rel: string; text: string }>;
  bytes: number;
  /** Hash of the tree's shape (names, types, sizes, mtimes): what the person approved. */
  sha256: string;
}

/** True when `source` names a directory (not through a final symbolic link): move_file then moves the tree. */
export function isDirectorySource(ctx: ToolContext, source: string): boolean {
  try {
    // A link to a directory is moved as a link (the file path), never the directory it points to.
    if (resolveLink(ctx.sandbox, source, 'list')) return false;
    return ctx.sandbox.resolve(source, 'list').kind === 'directory';
  } catch {
    return false;
  }
}

async function plan(ctx: ToolContext, input: TransferInput): Promise<DirectoryMove> {
  const { sandbox } = ctx;
  // A tree moved in one rename cannot be held in a change set hunk by hunk: refused rather than done on disk.
  if (ctx.staging)
    throw toolError(
      'invalid_argument',
      `${input.source} is a directory; while changes are staged for review, move its files one by one (or submit the change set first). Nothing was moved.`,
    );
  const from = sandbox.resolve(input.source, 'list');
  const vp = from.virtualPath;
  if (!sandbox.canWrite(vp))
    throw new SandboxError('path_not_writable', `${vp} is read-only here; it cannot be moved.`);
  if (sandbox.mounts.some((m) => m.mountPoint === vp)) {
    throw toolError('invalid_argument', `${vp} is a mount point; it cannot be moved.`);
  }
  if (input.overwrite) {
    throw toolError('invalid_argument', 'A directory is never moved over an existing one: drop `overwrite`.');
  }
  const dest = sandbox.normalize(input.destination);
  const parent = sandbox.resolve(path.posix.dirname(dest), 'list');
  if (parent.kind !== 'directory') throw toolError('not_found', `${parent.virtualPath} is not a directory.`);
  if (sandbox.mountFor(dest) !== parent.mount || !sandbox.canWrite(dest)) {
    throw new SandboxError('path_not_writable', `${dest} is not writable here; nothing was moved.`);
  }
  if (dest === vp || dest.startsWith(`${vp}/`)) {
    throw toolError('invalid_argument', `${dest} is inside ${vp}: a directory cannot move into itself.`);
  }
  const to = {
    virtualPath: dest,
    hostPath: path.join(parent.hostPath, path.posix.basename(dest)),
    mount: parent.mount,
  };
  if (
    await fs.lstat(to.hostPath).then(
      () => true,
      () => false,
    )
  ) {
    throw toolError('invalid_argument', `${dest} already exists; directories are moved only to a new path.`);
  }
  if (from.mount.realRoot !== to.mount.realRoot && from.mount.mountPoint !== to.mount.mountPoint) {
    // Different mounts may be different file systems: a tree is never copied piecemeal.
    throw toolError(
      'invalid_argument',
      `${vp} and ${dest} are in different mounts; directories move only within one.`,
    );
  }
  const { entries, links, bytes, shape } = await walk(ctx, from.hostPath, to.hostPath, dest);
  return { from, to, entries, links, bytes, sha256: createHash('sha256').update(shape).digest('hex') };
}

/** The tree under `dir`, refusing links that would point outside the sandbox once moved. */
async function walk(ctx: ToolContext, dir: string, newDir: string, dest: string) {
  const entries: string[] = [];
  const links: Array<{ rel: string; text: string }> = [];
  let bytes = 0;
  let shape = '';
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.pop()!;
    const list = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const d of list) {
      if (isTempFileName(d.name)) continue;
      const r = rel ? `${rel}/${d.name}` : d.name;
      const stat = await fs.lstat(path.join(dir, r));
      if (entries.length >= MAX_ENTRIES)
        throw toolError('invalid_argument', `More than ${MAX_ENTRIES} entries: move smaller directories.`);
      if (d.isSymbolicLink()) {
        const text = await fs.readlink(path.join(dir, r));
        if (links.length < LISTED_ENTRIES) links.push({ rel: r, text });
        if (linkTarget(ctx.sandbox, path.dirname(path.join(newDir, r)), text) === OUTSIDE_THE_SANDBOX)
          throw toolError(
            'path_not_in_sandbox',
            `${dest}/${r} would be a symbolic link pointing outside the sandbox; nothing was moved.`,
          );
      }
      if (d.isDirectory()) pending.push(r);
      else bytes += stat.size;
      entries.push(d.isDirectory() ? `${r}/` : r);
      shape += `${r}\0${stat.mode}\0${stat.size}\0${stat.mtimeMs}\n`;
    }
  }
  entries.sort();
  return { entries, links, bytes, shape };
}

/**
 * A file name as the description may show it: every character the visibility rule hides
 * (newlines, bidi overrides, zero-width, tabs) becomes a ⟨U+XXXX⟩ token, so a name cannot
 * forge lines or reorder text in whatever shows the description. (The entries stay raw data.)
 */
function visibleName(name: string): string {
  return name.replace(INVISIBLE_CHARS, (c) => `⟨${codePointLabel(c)}⟩`).replace(/\t/g, '⟨U+0009⟩');
}

export async function directoryMoveApproval(ctx: ToolContext, input: TransferInput): Promise<ApprovalResult> {
  try {
    const p = await plan(ctx, input);
    if (!p.from.mount.writeApproval && !p.to.mount.writeApproval) return ApprovalResult.preApproved();
    const files = p.entries.filter((e) => !e.endsWith('/')).length;
    const shown = p.entries.slice(0, LISTED_ENTRIES);
    const payload: MovePayload & { entries: string[]; entryCount: number; links: unknown[] } = {
      type: 'move',
      description: `Move the directory ${p.from.virtualPath} → ${p.to.virtualPath} (${files} file${files === 1 ? '' : 's'}, ${p.entries.length - files} folder${p.entries.length - files === 1 ? '' : 's'}, ${p.bytes} bytes): ${shown.slice(0, 5).map(visibleName).join(', ')}${p.entries.length > 5 ? ', …' : ''}`,
      path: p.from.virtualPath,
      mount: p.from.mount.mountPoint,
      baseSha256: p.sha256,
      source: p.from.virtualPath,
      destination: p.to.virtualPath,
      destinationMount: p.to.mount.mountPoint,
      destinationExists: false,
      overwrite: false,
      destinationSha256: null,
      fileBytes: p.bytes,
      entries: shown,
      entryCount: p.entries.length,
      links: retargetedLinks(p.from.virtualPath, p.to.virtualPath, p.links),
    };
    const destination = targetToCreate(ctx.sandbox, p.to.virtualPath);
    // Bound like a file move: the tree's own directory and where it goes (the destination's directory and name).
    return ApprovalResult.needsApproval(payload, {
      path: fileTargetOf(p.from),
      ...(destination ? { destination } : {}),
    });
  } catch (error) {
    return blockedFrom(error);
  }
}

/** The approved tree and destination are still what is there: anything else is stale_approval. */
function checkApprovedEnds(ctx: ToolContext, input: TransferInput): void {
  if (ctx.approvedTargets?.path)
    checkApprovedTarget(ctx, 'path', resolveApproved(ctx, 'path', input.source, 'list'));
  if (ctx.approvedTargets?.destination)
    checkApprovedTarget(ctx, 'destination', resolveApproved(ctx, 'destination', input.destination, 'write'));
}

/**
 * Relative links in the tree whose target changes with the move (a link to a
 * file outside the tree then names another file), in virtual paths.
 */
function retargetedLinks(
  from: string,
  to: string,
  links: Array<{ rel: string; text: string }>,
): Array<{ path: string; target: string; targetBefore: string; targetAfter: string }> {
  const out = [];
  for (const { rel, text } of links) {
    if (path.posix.isAbsolute(text)) continue;
    const before = path.posix.resolve(path.posix.dirname(`${from}/${rel}`), text);
    const after = path.posix.resolve(path.posix.dirname(`${to}/${rel}`), text);
    // A target inside the moved tree moves with it: the link still names the same file.
    const inside = before === from || before.startsWith(`${from}/`);
    const moved = inside ? `${to}${before.slice(from.length)}` : before;
    if (moved !== after) out.push({ path: rel, target: text, targetBefore: before, targetAfter: after });
  }
  return out;
}

/** Moves the tree with one rename (same mount), after checking it is still the tree that was approved. */
export async function moveDirectory(ctx: ToolContext, input: TransferInput): Promise<TransferOutput> {
  checkApprovedEnds(ctx, input);
  const first = await plan(ctx, input);
  return withFileLock(first.from.hostPath, async () => {
    checkApprovedEnds(ctx, input);
    const p = await plan(ctx, input);
    if (ctx.approvedBaseSha256 !== undefined && ctx.approvedBaseSha256 !== p.sha256) {
      throw toolError(
        'stale_approval',
        `${p.from.virtualPath} changed after it was approved (files added, removed or changed); nothing was moved. Call move_file again to review it.`,
      );
    }
    const source = await parentOf(p.from);
    const target = await parentOf(p.to);
    try {
      await fs.rename(
        source.child(path.basename(p.from.hostPath)),
        target.child(path.basename(p.to.hostPath)),
      );
    } finally {
      await source.close();
      await target.close();
    }
    ctx.writers.record(p.to.virtualPath, 'move_file');
    return { source: p.from.virtualPath, destination: p.to.virtualPath, bytes: p.bytes, overwritten: false };
  });
}
