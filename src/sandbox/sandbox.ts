import type fs from 'node:fs';
import { SandboxError } from '../contract/errors.js';
import { loadMounts, type Mount, type MountOptions, type SandboxConfigInput } from './config.js';
import { derivedGrants, type Grants, grantAllows, UNRESTRICTED } from './grants.js';
import { sandboxIdentity } from './identity.js';
import { notFoundError } from './not-found.js';
import { isInsideRoot, RealPathError, resolveRealPath } from './real-path.js';
import { closestNames } from './suggestions.js';
import { checkTargetPolicy, hostToVirtual, type ResolvedTarget } from './target.js';
import {
  isVirtualPrefix,
  joinVirtual,
  normalizeStrictVirtualPath,
  splitVirtualPath,
} from './virtual-path.js';

export type AccessKind = 'read' | 'write' | 'list';
export type EntryKind = 'file' | 'directory' | 'missing' | 'other';

export interface ResolvedPath {
  /** Normalised virtual path ("/src/a.ts"): the only path ever shown to models. */
  virtualPath: string;
  /** Real host path (symlinks resolved); for I/O only, never for messages. */
  hostPath: string;
  mount: Mount;
  kind: EntryKind;
  /** Size in bytes of an existing file. */
  size?: number;
  /** Where the path really leads (links followed): its policies are checked as well as the name's. */
  target: ResolvedTarget;
}

export interface SandboxOptions {
  /** Directory that relative host paths in the config are resolved against (default cwd). */
  basePath?: string;
}

export interface DeriveOptions {
  /** Virtual prefixes the child may read (one path or several). */
  allowRead?: string | readonly string[];
  /** Virtual prefixes the child may write (and read). */
  allowWrite?: string | readonly string[];
  /** true: the child can write nothing. false: the parent must be able to write somewhere. */
  readonly?: boolean;
  /** Start from the parent's access instead of none. */
  inherit?: boolean;
}

const asList = (v: string | readonly string[] | undefined): readonly string[] =>
  v === undefined ? [] : typeof v === 'string' ? [v] : v;

function kindOf(stat: fs.Stats | undefined): EntryKind {
  if (!stat) return 'missing';
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'directory';
  return 'other';
}

/**
 * A set of mounted host directories addressed by virtual paths. It decides what
 * may be touched and where it lives on the host; it never reads or writes content.
 */
export class Sandbox {
  readonly mounts: readonly Mount[];
  private readonly grants: Grants;
  private readonly parent: Sandbox | undefined;
  private identityCache: string | undefined;

  constructor(config: SandboxConfigInput, options: SandboxOptions = {}) {
    this.mounts = loadMounts(config, options.basePath);
    this.grants = UNRESTRICTED;
    this.parent = undefined;
  }

  /** One mount at "/" over `dir`. */
  static fromDirectory(dir: string, options: MountOptions & SandboxOptions = {}): Sandbox {
    const { basePath, ...mount } = options;
    return new Sandbox({ mounts: [{ hostPath: dir, mountPoint: '/', ...mount }] }, { basePath });
  }

  /**
   * A fingerprint of what this sandbox is: its mounts (real roots, mount points,
   * modes, limits, approval flags) and the grants of every derivation step. Equal
   * for two sandboxes with the same configuration (in any process), different
   * otherwise; remembered approvals and approval bindings are keyed by it, so a
   * decision made for one sandbox never covers another.
   */
  get identity(): string {
    if (this.identityCache === undefined) {
      const grants: Grants[] = [];
      for (let s: Sandbox | undefined = this; s; s = s.parent) grants.push(s.grants);
      this.identityCache = sandboxIdentity(this.mounts, grants);
    }
    return this.identityCache;
  }

  /** The most specific mount containing a normalised virtual path. */
  mountFor(virtualPath: string): Mount | undefined {
    let best: Mount | undefined;
    for (const m of this.mounts) {
      if (
        isVirtualPrefix(m.mountPoint, virtualPath) &&
        (!best || m.mountPoint.length > best.mountPoint.length)
      ) {
        best = m;
      }
    }
    return best;
  }

  canRead(virtualPath: string): boolean {
    const vp = this.tryNormalize(virtualPath);
    return vp !== undefined && this.allows('read', vp);
  }

  canWrite(virtualPath: string): boolean {
    const vp = this.tryNormalize(virtualPath);
    return vp !== undefined && this.allows('write', vp);
  }

  /** Virtual roots under which reading is allowed. */
  get readableRoots(): string[] {
    return this.roots('read');
  }

  /** Virtual roots under which writing is allowed. */
  get writableRoots(): string[] {
    return this.roots('write');
  }

  needsReadApproval(virtualPath: string): boolean {
    return this.mountOf(virtualPath).readApproval;
  }

  needsWriteApproval(virtualPath: string): boolean {
    return this.mountOf(virtualPath).writeApproval;
  }

  /** Throws suffix_not_allowed when the mount restricts suffixes and the path has none of them. */
  checkSuffix(virtualPath: string): void {
    const vp = normalizeStrictVirtualPath(virtualPath);
    const mount = this.mountOf(vp);
    if (!mount.suffixes || mount.suffixes.length === 0) return;
    const lower = vp.toLowerCase();
    if (mount.suffixes.some((s) => lower.endsWith(s.toLowerCase()))) return;
    throw new SandboxError(
      'suffix_not_allowed',
      `${vp}: files under ${mount.mountPoint} must end with one of: ${mount.suffixes.join(', ')}.`,
      { details: { allowedSuffixes: [...mount.suffixes] } },
    );
  }

  /** Throws file_too_large when `bytes` exceeds the mount's maxFileBytes. */
  checkSize(virtualPath: string, bytes: number): void {
    const mount = this.mountOf(virtualPath);
    if (mount.maxFileBytes !== undefined && bytes > mount.maxFileBytes) {
      throw new SandboxError(
        'file_too_large',
        `${normalizeStrictVirtualPath(virtualPath)} is ${bytes} bytes; files under ${mount.mountPoint} may be at most ${mount.maxFileBytes} bytes.`,
        { details: { bytes, maxFileBytes: mount.maxFileBytes } },
      );
    }
  }

  /**
   * Maps a virtual path to a host path that is guaranteed (at the time of the
   * call) to lie inside the mount's real root, following symlinks — dangling
   * ones included — by hand. Throws a SandboxError naming what IS allowed.
   */
  resolve(virtualPath: string, access: AccessKind): ResolvedPath {
    const vp = this.normalize(virtualPath);
    const mount = this.mountFor(vp);
    if (!mount) throw this.notInSandbox(vp);
    this.checkPermission(vp, access);
    const rest =
      vp === mount.mountPoint
        ? []
        : vp.slice(mount.mountPoint === '/' ? 1 : mount.mountPoint.length + 1).split('/');
    let resolved: ReturnType<typeof resolveRealPath>;
    try {
      resolved = resolveRealPath(mount.realRoot, rest);
    } catch (error) {
      if (!(error instanceof RealPathError)) throw error;
      if (error.reason === 'not_a_directory') {
        throw new SandboxError('not_found', `${vp} does not exist: ${error.message}.`);
      }
      throw new SandboxError('invalid_argument', `${vp}: ${error.message}.`);
    }
    if (!isInsideRoot(mount.realRoot, resolved.realPath)) {
      throw new SandboxError(
        'path_not_in_sandbox',
        `${vp} leads outside the sandbox through a symbolic link. ${this.allowedSummary()}`,
        { suggestions: this.readableRoots.slice(0, 3) },
      );
    }
    const kind = kindOf(resolved.stat);
    if (kind === 'other') {
      throw new SandboxError(
        'not_a_file',
        `${vp} is not a regular file (a device, FIFO or socket); only regular files can be used.`,
      );
    }
    if (access !== 'list' && kind === 'directory') {
      throw new SandboxError(
        'not_a_file',
        `${vp} is a directory, not a file. Use list_files to see its contents.`,
      );
    }
    if ((access === 'read' || access === 'list') && kind === 'missing') {
      throw notFoundError(vp, mount, resolved.realPath, this.mounts);
    }
    if (access !== 'list') this.checkSuffix(vp);
    const target = this.targetOf(vp, mount, resolved.realPath, resolved.links);
    checkTargetPolicy(this, vp, target, access, kind === 'directory');
    return {
      virtualPath: vp,
      hostPath: resolved.realPath,
      mount,
      target,
      kind,
      ...(kind === 'file' && resolved.stat ? { size: resolved.stat.size } : {}),
    };
  }

  /** The real virtual path of a resolved host path and the links followed to it (as virtual paths). */
  private targetOf(vp: string, mount: Mount, real: string, links: readonly string[]): ResolvedTarget {
    const via = links.map((l) => hostToVirtual(this.mounts, l, mount)?.virtualPath ?? 'outside the sandbox');
    if (via.length === 0) return { virtualPath: vp, mount, via };
    const at = hostToVirtual(this.mounts, real, mount) ?? { virtualPath: vp, mount };
    return { ...at, via };
  }

  /**
   * A child sandbox over the same mounts. It starts with NO access unless
   * `inherit` is set (then it keeps the parent's access, and `allowRead` /
   * `allowWrite`, when given, narrow it). Every grant must already be held by
   * this sandbox: asking for more throws (path_not_in_sandbox / path_not_writable),
   * and so does `readonly: false` when this sandbox can write nowhere.
   */
  derive(options: DeriveOptions = {}): Sandbox {
    const allowRead = asList(options.allowRead).map((p) => normalizeStrictVirtualPath(p));
    const allowWrite = asList(options.allowWrite).map((p) => normalizeStrictVirtualPath(p));
    for (const p of allowRead) {
      if (!this.allows('read', p)) throw this.notInSandbox(p);
    }
    for (const p of allowWrite) {
      if (!this.allows('write', p)) {
        throw new SandboxError(
          'path_not_writable',
          `cannot grant write access to ${p}: the parent sandbox cannot write there.`,
          { suggestions: this.writableRoots.slice(0, 3) },
        );
      }
    }
    if (options.readonly === false && this.writableRoots.length === 0) {
      throw new SandboxError(
        'path_not_writable',
        'cannot derive a writable sandbox (readonly: false): the parent sandbox cannot write anywhere.',
      );
    }
    const grants = derivedGrants(options, allowRead, allowWrite);
    const child = Object.create(Sandbox.prototype) as Sandbox;
    Object.assign(child, { mounts: this.mounts, grants, parent: this, identityCache: undefined });
    return child;
  }

  /** Normalises and applies `..` without ever clamping: climbing above a mount is an error. */
  normalize(virtualPath: string): string {
    const segments = splitVirtualPath(virtualPath);
    const stack: string[] = [];
    for (const segment of segments) {
      if (segment !== '..') {
        stack.push(segment);
        continue;
      }
      const here = joinVirtual(stack);
      const mount = this.mountFor(here);
      const mountDepth = mount ? (mount.mountPoint === '/' ? 0 : mount.mountPoint.split('/').length - 1) : -1;
      if (!mount || stack.length <= mountDepth) {
        throw new SandboxError(
          'path_not_in_sandbox',
          `The path uses ".." to climb above ${mount ? `the mount point ${mount.mountPoint}` : 'the sandbox root'}; ".." may not leave a mount. ${this.allowedSummary()}`,
          { suggestions: this.readableRoots.slice(0, 3) },
        );
      }
      stack.pop();
    }
    return joinVirtual(stack);
  }

  private tryNormalize(virtualPath: string): string | undefined {
    try {
      return this.normalize(virtualPath);
    } catch {
      return undefined;
    }
  }

  private mountOf(virtualPath: string): Mount {
    const vp = this.normalize(virtualPath);
    const mount = this.mountFor(vp);
    if (!mount) throw this.notInSandbox(vp);
    return mount;
  }

  private allows(access: 'read' | 'write', vp: string): boolean {
    const mount = this.mountFor(vp);
    if (!mount) return false;
    if (access === 'write') {
      if (mount.mode !== 'rw' || this.grants.readonly || !grantAllows(this.grants.write, vp)) return false;
      if (!grantAllows(this.grants.read, vp)) return false; // writing never reaches past what may be read
    } else if (!grantAllows(this.grants.read, vp)) {
      return false;
    }
    return this.parent ? this.parent.allows(access, vp) : true;
  }

  private checkPermission(vp: string, access: AccessKind): void {
    if (access === 'write') {
      if (this.allows('write', vp)) return;
      if (!this.allows('read', vp)) throw this.notInSandbox(vp);
      const writable = this.writableRoots;
      throw new SandboxError(
        'path_not_writable',
        `${vp} is read-only. ${writable.length ? `Writable roots: ${writable.join(', ')}.` : 'Nothing in this sandbox is writable.'}`,
        { suggestions: writable.slice(0, 3) },
      );
    }
    if (!this.allows('read', vp)) throw this.notInSandbox(vp);
  }

  private roots(access: 'read' | 'write'): string[] {
    const own = access === 'read' ? this.grants.read : this.grants.write;
    const candidates =
      own ?? (this.parent ? this.parent.roots(access) : this.mounts.map((m) => m.mountPoint));
    return [...new Set(candidates.filter((p) => this.allows(access, p)))].sort();
  }

  private allowedSummary(): string {
    const readable = this.readableRoots;
    const writable = this.writableRoots;
    return `Readable roots: ${readable.length ? readable.join(', ') : '(none)'}; writable roots: ${writable.length ? writable.join(', ') : '(none)'}.`;
  }

  private notInSandbox(vp: string): SandboxError {
    const roots = this.readableRoots;
    const top = vp.split('/')[1] ?? '';
    // Suggest the readable roots whose first segment is closest to the one asked for.
    const firsts = roots.map((r) => r.split('/')[1] ?? '');
    const nearNames = new Set(closestNames(top, firsts));
    const near = roots.filter((_, i) => nearNames.has(firsts[i]!)).slice(0, 3);
    // A path under no mount may be a host path the model guessed: do not echo it back whole.
    const shown = this.mountFor(vp) ? vp : `A path starting with "/${top.slice(0, 40)}"`;
    return new SandboxError(
      'path_not_in_sandbox',
      `${shown} is outside the sandbox. ${this.allowedSummary()}`,
      {
        suggestions: near.length ? near : roots.slice(0, 3),
      },
    );
  }
}
