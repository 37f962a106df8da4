import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { FileSystemToolset } from '../tools/filesystem-toolset.js';

/** What the server does with the client's roots: ignore them (default) or let them narrow the mounts. */
export const ROOTS_MODES = ['ignore', 'narrow'] as const;
export type RootsMode = (typeof ROOTS_MODES)[number];

const isInside = (parent: string, child: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** A root's real host directory, or undefined for a root that is not a local directory. */
function rootDirectory(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fs.realpathSync(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

/**
 * The sandbox narrowed to the client's roots: the intersection of each mount
 * with each root (a root inside a mount grants that part of the mount; a mount
 * inside a root stays whole). Access only ever shrinks: it is a derived
 * sandbox, and a root that covers no mount grants nothing.
 */
export function narrowToRoots(sandbox: Sandbox, roots: readonly { uri: string }[]): Sandbox {
  const allowRead: string[] = [];
  const allowWrite: string[] = [];
  for (const dir of roots.map((r) => rootDirectory(r.uri))) {
    if (dir === undefined) continue;
    for (const m of sandbox.mounts) {
      let virtual: string | undefined;
      if (isInside(dir, m.realRoot)) virtual = m.mountPoint;
      else if (isInside(m.realRoot, dir)) {
        const rel = path.relative(m.realRoot, dir).split(path.sep).join('/');
        virtual = m.mountPoint === '/' ? `/${rel}` : `${m.mountPoint}/${rel}`;
      }
      // The most specific mount decides what a path is: skip parts of this mount that another mount covers.
      if (virtual === undefined || sandbox.mountFor(virtual) !== m) continue;
      if (sandbox.canWrite(virtual)) allowWrite.push(virtual);
      else if (sandbox.canRead(virtual)) allowRead.push(virtual);
    }
  }
  return sandbox.derive({ allowRead, allowWrite });
}

/** The toolset seen through another sandbox (a narrowed one): same tools, state, journal and locks. */
export function withSandbox(toolset: FileSystemToolset, sandbox: Sandbox): FileSystemToolset {
  const view = Object.create(toolset) as FileSystemToolset;
  Object.defineProperty(view, 'sandbox', { value: sandbox, enumerable: true });
  return view;
}
