import fs from 'node:fs';
import path from 'node:path';
import { SandboxError } from '../contract/errors.js';
import type { FileTarget } from '../contract/file-target.js';
import type { Mount } from './config.js';
import { isInsideRoot } from './real-path.js';
import type { AccessKind, Sandbox } from './sandbox.js';
import { joinVirtual } from './virtual-path.js';

/** Where a virtual path really leads: the real virtual path after links, and the links followed. */
export interface ResolvedTarget {
  /** The real virtual path (equal to the name when no link was followed). */
  virtualPath: string;
  /** The mount the real path lies in: its policies apply as well as the name's. */
  mount: Mount;
  /** The symbolic links followed on the way, as virtual paths, in order. */
  via: string[];
}

/** The virtual path of a real host path, in the most specific mount holding it (`prefer` on a tie). */
export function hostToVirtual(
  mounts: readonly Mount[],
  real: string,
  prefer?: Mount,
): { virtualPath: string; mount: Mount } | undefined {
  let best: Mount | undefined;
  for (const m of mounts) {
    if (!isInsideRoot(m.realRoot, real)) continue;
    if (!best || m.realRoot.length > best.realRoot.length || (m === prefer && m.realRoot === best.realRoot))
      best = m;
  }
  if (!best) return undefined;
  const rel = path.relative(best.realRoot, real);
  const base = best.mountPoint === '/' ? [] : best.mountPoint.slice(1).split('/');
  return { virtualPath: joinVirtual([...base, ...(rel === '' ? [] : rel.split(path.sep))]), mount: best };
}

/**
 * A policy is checked on the name AND on where it leads: a link `/env.md → .env`
 * under `suffixes: ['.md']`, or into a read-only mount, is refused like the
 * target itself would be. The error names both.
 */
export function checkTargetPolicy(
  sandbox: Sandbox,
  name: string,
  target: ResolvedTarget,
  access: AccessKind,
  isDirectory: boolean,
): void {
  const real = target.virtualPath;
  if (real === name && target.mount.mountPoint === sandbox.mountFor(name)?.mountPoint) return;
  const through = `${name} leads to ${real} through a symbolic link`;
  if (access === 'write' && !sandbox.canWrite(real)) {
    if (!sandbox.canRead(real))
      throw new SandboxError(
        'path_not_in_sandbox',
        `${through}, and ${real} is outside what this sandbox may use.`,
      );
    throw new SandboxError(
      'path_not_writable',
      `${through}, and ${real} is read-only. Nothing was changed.`,
      {
        suggestions: sandbox.writableRoots.slice(0, 3),
      },
    );
  }
  if (!sandbox.canRead(real))
    throw new SandboxError(
      'path_not_in_sandbox',
      `${through}, and ${real} is outside what this sandbox may use.`,
    );
  if (access === 'list' || isDirectory) return;
  try {
    sandbox.checkSuffix(real);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    throw new SandboxError(error.code, `${through}; ${error.message}`, {
      ...(error.details ? { details: error.details } : {}),
    });
  }
}

/**
 * What an approval binds to for one file a call touches: the name, where it
 * really leads, and the file's identity. Compared again under the file lock at
 * execution: a file or a parent directory swapped during the prompt (for a link,
 * or for another file with the same bytes) no longer matches.
 */
export type { FileTarget };

function devIno(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}`;
}

/** The deepest existing directory above `hostPath` (and the path below it), with its identity. */
function anchorOf(hostPath: string): { id: string; rest: string } {
  let dir = path.dirname(hostPath);
  for (let n = 0; n < 4096; n++) {
    try {
      return { id: devIno(fs.statSync(dir)), rest: path.relative(dir, hostPath) };
    } catch {
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return { id: '?', rest: hostPath };
}

/**
 * The target of an entry resolved now: a resolved path (its `target` says where
 * the name leads) or a link the call acts on itself (its `target` is only a
 * phrase to show: the link entry is what is bound).
 */
export function fileTargetOf(entry: {
  virtualPath: string;
  hostPath: string;
  mount: { mountPoint: string };
  target?: ResolvedTarget | string;
}): FileTarget {
  const led = typeof entry.target === 'object' ? entry.target : undefined;
  const anchor = anchorOf(entry.hostPath);
  let identity: string;
  let born: string | undefined;
  try {
    const stat = fs.lstatSync(entry.hostPath, { bigint: true });
    identity = `${stat.dev}:${stat.ino}`;
    if (stat.birthtimeNs > 0n) born = String(stat.birthtimeNs);
  } catch {
    identity = `missing ${anchor.id}/${anchor.rest}`;
  }
  return {
    name: entry.virtualPath,
    path: led?.virtualPath ?? entry.virtualPath,
    via: led ? [...led.via] : [],
    mount: led?.mount.mountPoint ?? entry.mount.mountPoint,
    identity,
    slot: `${anchor.id}/${anchor.rest}`,
    ...(born === undefined ? {} : { born }),
  };
}

/** Why two targets of one file differ (undefined: the same file, reached the same way). */
export function targetChange(approved: FileTarget, now: FileTarget): string | undefined {
  if (approved.path !== now.path)
    return `${approved.name} now leads to ${now.path}, not to ${approved.path} as when it was approved`;
  if (approved.via.join('\0') !== now.via.join('\0'))
    return `${approved.name} now leads through ${now.via.length ? `the links ${now.via.join(', ')}` : 'no link'}, not as when it was approved`;
  if (approved.slot !== now.slot) return `a directory on the way to ${approved.path} was replaced`;
  if (approved.identity !== now.identity || !sameBirth(approved.born, now.born))
    return `${approved.path} was replaced by another file`;
  return undefined;
}

function sameBirth(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}
