import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ApprovalResult } from '../contract/approval-types.js';
import { isApplyEntryName } from '../fs/apply-names.js';
import { isTempFileName } from '../fs/temp-name.js';
import type { Mount } from '../sandbox/config.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { isVirtualPrefix } from '../sandbox/virtual-path.js';
import { blockedFrom } from './apply-write.js';
import { compileGlob } from './glob-pattern.js';
import type { SandboxTool, ToolContext } from './types.js';

export const ListFilesInput = z.object({
  path: z.string().optional().describe('Virtual directory to list (default "/").'),
  pattern: z.string().optional().describe('Glob relative to `path` (default "**/*"), e.g. "**/*.ts".'),
});
export type ListFilesInput = z.infer<typeof ListFilesInput>;

export interface ListFilesOutput {
  path: string;
  pattern: string;
  /** Sorted virtual paths; directories end with "/". */
  entries: string[];
  count: number;
  truncated: boolean;
  /**
   * Directories the walk entered but could not read (no permission, or a host path past the
   * system's limit), first ones only: the listing has nothing below them. Absent when none.
   */
  unreadable?: string[];
}

/** Unreadable directories named in a result, at most. */
const MAX_UNREADABLE = 100;

/** Bound on directory entries visited per call, so a huge tree cannot stall the agent. */
const MAX_VISITED = 200_000;

interface WalkRoot {
  virtualDir: string;
  /** Undefined for a directory only mounts below it make (the mount above has none there). */
  hostDir: string | undefined;
  mount: Mount;
}

/** Where a listing starts: a directory to walk, or a single file a derived sandbox grants. */
type ListRoot = { dir: WalkRoot } | { file: string; mount: Mount };

/** The mounts other than `mount` that lie below virtual directory `vp`. */
function mountsBelow(sandbox: Sandbox, vp: string, mount: Mount): Mount[] {
  const prefix = vp === '/' ? '/' : `${vp}/`;
  return sandbox.mounts.filter((m) => m !== mount && m.mountPoint !== '/' && m.mountPoint.startsWith(prefix));
}

/**
 * Where to list: the listed directory when it is readable (a directory the mount
 * above lacks is still listed when mounts lie below it); otherwise (no mount
 * there, or a derived sandbox granted only parts of it) the outermost readable
 * roots below it, directories and granted files alike, so "/" lists whatever may
 * be read.
 */
function walkRoots(sandbox: Sandbox, dir: string): ListRoot[] {
  const vp = sandbox.normalize(dir);
  if (sandbox.canRead(vp)) {
    try {
      const resolved = sandbox.resolve(vp, 'list');
      return [
        { dir: { virtualDir: resolved.virtualPath, hostDir: resolved.hostPath, mount: resolved.mount } },
      ];
    } catch (error) {
      const mount = sandbox.mountFor(vp);
      if (!mount || mountsBelow(sandbox, vp, mount).length === 0) throw error;
      return [{ dir: { virtualDir: vp, hostDir: undefined, mount } }];
    }
  }
  const below = sandbox.readableRoots.filter((r) => r !== vp && isVirtualPrefix(vp, r));
  const outermost = below.filter((r) => !below.some((o) => o !== r && isVirtualPrefix(o, r)));
  const roots: ListRoot[] = [];
  for (const root of outermost) {
    try {
      const resolved = sandbox.resolve(root, 'list');
      if (resolved.kind === 'directory')
        roots.push({
          dir: { virtualDir: resolved.virtualPath, hostDir: resolved.hostPath, mount: resolved.mount },
        });
      else if (resolved.kind === 'file') roots.push({ file: resolved.virtualPath, mount: resolved.mount });
    } catch {
      // A granted directory only mounts below make is listed; one that does not exist (yet) is not.
      const mount = sandbox.mountFor(root);
      if (mount && mountsBelow(sandbox, root, mount).length > 0)
        roots.push({ dir: { virtualDir: root, hostDir: undefined, mount } });
    }
  }
  // Nothing readable below: the standard, helpful error. Readable roots that do not exist yet: an empty listing.
  if (below.length === 0) sandbox.resolve(vp, 'list');
  return roots;
}

const mountOf = (root: ListRoot) => ('dir' in root ? root.dir.mount : root.mount);

export const listFiles: SandboxTool<ListFilesInput, ListFilesOutput> = {
  name: 'list_files',
  description: [
    'List files and directories under a virtual directory, filtered by a glob pattern relative to it (default "**/*", everything below).',
    'Results are sorted virtual paths (directories end with "/"), capped; `truncated` says when there were more — narrow `path` or `pattern`.',
    '`unreadable` names directories that could not be read (nothing below them is listed).',
    'Patterns may not start with "/" or "~" or contain "..".',
  ].join(' '),
  inputSchema: ListFilesInput,

  async needsApproval(input, ctx) {
    try {
      const roots = walkRoots(ctx.sandbox, input.path ?? '/');
      compileGlob(input.pattern ?? '**/*');
      const vp = ctx.sandbox.normalize(input.path ?? '/');
      // The walk enters nested mounts too: one whose reads need approval makes the listing need it.
      const asks =
        roots.some((r) => mountOf(r).readApproval) ||
        ctx.sandbox.mounts.some(
          (m) => m.readApproval && m.mountPoint !== vp && isVirtualPrefix(vp, m.mountPoint),
        );
      if (!asks) return ApprovalResult.preApproved();
      return ApprovalResult.needsApproval({
        type: 'list',
        description: `List ${vp} (${input.pattern ?? '**/*'})`,
        path: vp,
        mount: (roots[0] ? mountOf(roots[0]) : ctx.sandbox.mountFor(vp))?.mountPoint ?? '/',
        pattern: input.pattern ?? '**/*',
      });
    } catch (error) {
      return blockedFrom(error);
    }
  },

  async execute(input, ctx) {
    const pattern = input.pattern ?? '**/*';
    const matches = compileGlob(pattern);
    const base = ctx.sandbox.normalize(input.path ?? '/');
    const roots = walkRoots(ctx.sandbox, base);
    const max = ctx.limits.listMaxEntries;
    const found: string[] = [];
    let truncated = false;
    const relativeToBase = (vp: string) => (base === '/' ? vp.slice(1) : vp.slice(base.length + 1));
    // Per-entry checks only where they can say no: a walk over whole readable mounts needs no canRead,
    // and with one mount every entry is that mount's (these two checks were most of a large listing's time).
    const everywhere = roots.every(
      (r) => 'dir' in r && ctx.sandbox.readableRoots.includes(r.dir.mount.mountPoint),
    );
    const nested = ctx.sandbox.mounts.length > 1;
    const consider = (vp: string, isDir: boolean) => {
      if (!everywhere && !ctx.sandbox.canRead(vp)) return;
      if (!matches(relativeToBase(vp), isDir)) return;
      if (found.length >= max) {
        truncated = true;
        return;
      }
      found.push(isDir ? `${vp}/` : vp);
    };
    // Depth first, each directory's entries in the listing's own order (see childrenOf): matches
    // come in sorted order, so a capped listing is the first entries of the whole one, and the walk
    // stops at the first match past the cap (the rest of the tree would be read for nothing).
    const counted: WalkCounts = { visited: 0, unreadable: [] };
    const pace = eventLoopPace();
    const keyOf = (r: ListRoot) => ('dir' in r ? `${r.dir.virtualDir}/` : r.file);
    const sortedRoots = [...roots].sort((a, b) => byCodeUnits(keyOf(a), keyOf(b)));
    // A directory below which no path can match is not read (the cap is not spent on it): a listing
    // that read every directory the pattern can reach is complete. Past MAX_VISITED entries read,
    // no further directory is read: the listing so far is still the start of the whole one, and
    // says it is truncated.
    const enter = async (dir: WalkRoot) => {
      if (dir.virtualDir !== base && !matches.mayMatchBelow(relativeToBase(dir.virtualDir))) return undefined;
      if (counted.visited >= MAX_VISITED) truncated = true;
      if (truncated) return undefined;
      const children = await childrenOf(ctx, dir, nested, counted);
      pace.read();
      return { children, at: 0 };
    };
    for (const listed of sortedRoots) {
      if ('file' in listed) {
        consider(listed.file, false);
        if (truncated) break;
        continue;
      }
      const root = listed.dir;
      if (root.virtualDir !== base) consider(root.virtualDir, true);
      const first = await enter(root);
      const stack = first ? [first] : [];
      while (stack.length > 0 && !truncated) {
        const top = stack.at(-1)!;
        const child = top.children[top.at++];
        if (child === undefined) {
          stack.pop();
          continue;
        }
        consider(child.virtualPath, child.dir !== undefined);
        if (pace.due()) await pace.yield();
        if (!child.dir || truncated) continue;
        const inner = await enter(child.dir);
        if (inner) stack.push(inner);
      }
      if (truncated) break;
    }
    // The walk meets entries in the listing's order (see childrenOf): nothing to sort.
    const entries = [...new Set(found)];
    const { unreadable } = counted;
    return {
      path: base,
      pattern,
      entries,
      count: entries.length,
      truncated,
      ...(unreadable.length > 0 ? { unreadable: unreadable.slice(0, MAX_UNREADABLE) } : {}),
    };
  },
};

/**
 * Matching one directory's names runs without an await: a long pattern over thousands of long
 * names held the event loop for seconds. Every few entries the walk checks the time, and past a
 * slice it lets timers and I/O run (a directory read is such a pause already).
 */
function eventLoopPace() {
  const SLICE_MS = 20;
  let since = performance.now();
  let entries = 0;
  return {
    /** Checked every 64 entries: a clock read per entry would cost more than most matches. */
    due: () => (++entries & 63) === 0 && performance.now() - since > SLICE_MS,
    read: () => {
      since = performance.now();
    },
    yield: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    },
  };
}

/** What a walk counts: entries read, and the directories it could not read. */
interface WalkCounts {
  visited: number;
  unreadable: string[];
}

/** An entry of a listed directory; `dir` when the walk descends into it. */
interface Child {
  virtualPath: string;
  dir?: WalkRoot;
}

/** The order of the listing: by UTF-16 code units, as Array.prototype.sort orders strings. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A directory's entries to list, sorted so that a walk taking them depth first
 * meets paths in the listing's order: a directory sorts by its name and a "/"
 * ("a.txt" before "a/", since "." comes before "/"), as its listed path and every
 * path below it do. Temp files of atomic writes and change-set entries are left
 * out; a nested mount shadows the host entry at its mount point and is listed there.
 */
async function childrenOf(
  ctx: ToolContext,
  dir: WalkRoot,
  nested: boolean,
  counted: WalkCounts,
): Promise<Child[]> {
  const children: Child[] = [];
  const keys: string[] = [];
  const add = (key: string, child: Child) => {
    keys.push(key);
    children.push(child);
  };
  // Host directories listed here: a mount deeper below one of them is met when the walk enters it.
  const dirNames = new Set<string>();
  const read = dir.hostDir === undefined ? [] : await entriesOf(ctx, dir.hostDir);
  if (read === undefined) counted.unreadable.push(`${dir.virtualDir}/`);
  for (const entry of read ?? []) {
    counted.visited++;
    if (isTempFileName(entry.name)) continue; // an atomic write in progress (or abandoned)
    if (isApplyEntryName(entry.name)) continue; // a change set being applied (or its journal)
    const vp = dir.virtualDir === '/' ? `/${entry.name}` : `${dir.virtualDir}/${entry.name}`;
    const owner = nested ? ctx.sandbox.mountFor(vp) : dir.mount;
    if (owner && owner !== dir.mount) continue;
    if (entry.isDirectory()) {
      dirNames.add(entry.name);
      const sub = { virtualDir: vp, hostDir: path.join(dir.hostDir!, entry.name), mount: dir.mount };
      add(`${entry.name}/`, { virtualPath: vp, dir: sub });
    } else if (entry.isFile() || (entry.isSymbolicLink() && symlinkStaysInside(ctx.sandbox, vp))) {
      add(entry.name, { virtualPath: vp }); // a link is listed, never descended into
    }
  }
  // Nested mounts below this directory: one directly below is listed at its mount point; one
  // deeper, below a name this directory does not have, makes a directory of that name.
  const prefix = dir.virtualDir === '/' ? '/' : `${dir.virtualDir}/`;
  const below = mountsBelow(ctx.sandbox, dir.virtualDir, dir.mount);
  const made = new Set<string>();
  for (const m of below) {
    const rest = m.mountPoint.slice(prefix.length);
    if (rest.includes('/')) continue;
    const sub = { virtualDir: m.mountPoint, hostDir: m.realRoot, mount: m };
    add(`${rest}/`, { virtualPath: m.mountPoint, dir: sub });
    made.add(rest);
  }
  for (const m of below) {
    const rest = m.mountPoint.slice(prefix.length);
    const name = rest.slice(0, rest.indexOf('/'));
    if (!rest.includes('/') || dirNames.has(name) || made.has(name)) continue;
    made.add(name);
    const sub = { virtualDir: `${prefix}${name}`, hostDir: undefined, mount: dir.mount };
    add(`${name}/`, { virtualPath: `${prefix}${name}`, dir: sub });
  }
  return inOrder(children, keys);
}

/**
 * The children ordered by their keys (UTF-16 code units, stable). readdir gives names in
 * byte order already, which is this order (but for characters past U+FFFF against those
 * from U+E000 on, and a directory "a/" against a file "a.txt"), so the check usually finds
 * them in order and nothing is sorted (sorting a 10,000-entry directory's keyed pairs cost
 * about 1 ms of a 12 ms listing over MCP).
 */
function inOrder(children: Child[], keys: readonly string[]): Child[] {
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! <= keys[i]!;
  if (sorted) return children;
  return children
    .map((child, i) => ({ child, key: keys[i]! }))
    .sort((a, b) => byCodeUnits(a.key, b.key))
    .map((k) => k.child);
}

function symlinkStaysInside(sandbox: Sandbox, vp: string): boolean {
  try {
    sandbox.resolve(vp, 'read');
    return true;
  } catch {
    return false; // leads outside, dangles, or is not a regular file
  }
}

/**
 * A directory's entries, read in one call: its entries are sorted before any is
 * listed, so all are needed, and one readdir costs one thread-pool round trip
 * where reading in batches cost one per batch and an await per entry. A directory
 * gone since its parent was read has none; one that cannot be read (no permission,
 * a host path past the system's limit) gives undefined: the listing says so.
 */
async function entriesOf(ctx: ToolContext, hostDir: string): Promise<ListedEntry[] | undefined> {
  let entries: ListedEntry[];
  try {
    entries = await fs.readdir(hostDir, { withFileTypes: true });
  } catch (error) {
    entries = [];
    if (!ctx.staging?.isDirectory(hostDir)) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? entries : undefined;
    }
  }
  if (ctx.staging && ctx.staging.size > 0) return withStaged(entries, ctx.staging.children(hostDir));
  return entries;
}

type ListedEntry = Pick<import('node:fs').Dirent, 'name' | 'isDirectory' | 'isFile' | 'isSymbolicLink'>;

/** Staging mode: the directory's entries as staged (created files and directories in, deleted files out). */
function withStaged(
  entries: ListedEntry[],
  staged: { name: string; directory: boolean; deleted: boolean }[],
): ListedEntry[] {
  if (staged.length === 0) return entries;
  const byName = new Map(staged.map((s) => [s.name, s]));
  const kept = entries.filter(
    (e) => !byName.has(e.name) || (byName.get(e.name)!.directory && e.isDirectory()),
  );
  const present = new Set(kept.map((e) => e.name));
  for (const s of staged) {
    if (s.deleted || present.has(s.name)) continue;
    kept.push({
      name: s.name,
      isDirectory: () => s.directory,
      isFile: () => !s.directory,
      isSymbolicLink: () => false,
    });
  }
  return kept;
}
