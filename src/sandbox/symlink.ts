import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Mount } from './config.js';
import { isInsideRoot, RealPathError, resolveRealPath } from './real-path.js';
import type { AccessKind, Sandbox } from './sandbox.js';
import { joinVirtual } from './virtual-path.js';

/** A symbolic link addressed by a virtual path: the link entry itself, not what it points to. */
export interface ResolvedLink {
  virtualPath: string;
  /** Host path of the link entry (its parent directory real, inside the mount). Never shown. */
  hostPath: string;
  mount: Mount;
  kind: 'symlink';
  /** The link's text, for recreating it; may be a host path, so never shown. */
  linkText: string;
  /** Where it points: a virtual path, or a phrase such as "outside the sandbox". Safe to show. */
  target: string;
  /** The state of the link (SHA-256 of its text): what approval binds to. */
  sha256: string;
}

export const OUTSIDE_THE_SANDBOX = 'outside the sandbox';

/** State hash of a link: its text, tagged so it never equals a file's content hash. */
function linkSha256(linkText: string): string {
  return createHash('sha256').update(`symlink\0${linkText}`).digest('hex');
}

/**
 * The link itself when the LAST component of a virtual path is a symbolic link
 * (its parents resolved, and inside the mount), else undefined, also when the
 * path is not usable at all: the caller's ordinary resolve then reports why.
 * Delete, move and copy act on what this returns, as rm, mv and cp -P do.
 */
export function resolveLink(
  sandbox: Sandbox,
  virtualPath: string,
  access: AccessKind,
): ResolvedLink | undefined {
  let vp: string;
  try {
    vp = sandbox.normalize(virtualPath);
  } catch {
    return undefined;
  }
  const mount = sandbox.mountFor(vp);
  if (!mount || vp === mount.mountPoint) return undefined;
  if (access === 'write' ? !sandbox.canWrite(vp) : !sandbox.canRead(vp)) return undefined;
  const rest = vp.slice(mount.mountPoint === '/' ? 1 : mount.mountPoint.length + 1).split('/');
  const name = rest.pop()!;
  let parent: string;
  try {
    const resolved = resolveRealPath(mount.realRoot, rest);
    if (!resolved.stat?.isDirectory() || !isInsideRoot(mount.realRoot, resolved.realPath)) return undefined;
    parent = resolved.realPath;
  } catch {
    return undefined;
  }
  const entry = path.join(parent, name);
  let linkText: string;
  try {
    if (!fs.lstatSync(entry).isSymbolicLink()) return undefined;
    linkText = fs.readlinkSync(entry);
  } catch {
    return undefined;
  }
  if (access !== 'list') sandbox.checkSuffix(vp);
  return {
    virtualPath: vp,
    hostPath: entry,
    mount,
    kind: 'symlink',
    linkText,
    target: linkTarget(sandbox, parent, linkText),
    sha256: linkSha256(linkText),
  };
}

/**
 * Where a link with this text, placed in the real directory `dir`, points: the
 * virtual path (when this sandbox may read it), or a phrase. Host paths never
 * come out of here.
 */
export function linkTarget(sandbox: Sandbox, dir: string, linkText: string): string {
  let real: string;
  try {
    const start = path.isAbsolute(linkText) ? path.parse(dir).root : dir;
    real = resolveRealPath(start, linkText.split('/')).realPath;
  } catch (error) {
    return error instanceof RealPathError && error.reason === 'loop'
      ? 'nowhere (a symbolic link loop)'
      : OUTSIDE_THE_SANDBOX;
  }
  let best: Mount | undefined;
  for (const m of sandbox.mounts) {
    if (isInsideRoot(m.realRoot, real) && (!best || m.realRoot.length > best.realRoot.length)) best = m;
  }
  if (!best) return OUTSIDE_THE_SANDBOX;
  const rel = path.relative(best.realRoot, real);
  const base = best.mountPoint === '/' ? [] : best.mountPoint.slice(1).split('/');
  const virtual = joinVirtual([...base, ...(rel === '' ? [] : rel.split(path.sep))]);
  return sandbox.canRead(virtual) ? virtual : OUTSIDE_THE_SANDBOX;
}
