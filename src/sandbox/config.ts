import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SandboxConfigError } from '../contract/errors.js';

const MountSchema = z.object({
  hostPath: z.string().min(1, 'hostPath must not be empty'),
  mountPoint: z.string().min(1, 'mountPoint must not be empty'),
  mode: z.enum(['ro', 'rw']).default('ro'),
  suffixes: z.array(z.string().min(1)).optional(),
  maxFileBytes: z.number().int().positive().optional(),
  writeApproval: z.boolean().default(true),
  readApproval: z.boolean().default(false),
});

const SandboxConfigSchema = z.object({
  mounts: z.array(MountSchema).min(1, 'at least one mount is required'),
});

export type MountInput = z.input<typeof MountSchema>;
export type MountOptions = Omit<MountInput, 'hostPath' | 'mountPoint'>;
export type SandboxConfigInput = z.input<typeof SandboxConfigSchema>;

/** A validated mount with its host directory resolved to a real path. */
export interface Mount {
  readonly mountPoint: string;
  /** Absolute host path as configured (not shown to models). */
  readonly hostPath: string;
  /** realpath of hostPath: every resolved path must lie inside it. */
  readonly realRoot: string;
  readonly mode: 'ro' | 'rw';
  readonly suffixes: readonly string[] | undefined;
  readonly maxFileBytes: number | undefined;
  readonly writeApproval: boolean;
  readonly readApproval: boolean;
}

const MOUNT_POINT_FORM = /^\/(?:[^/\\\0]+(?:\/[^/\\\0]+)*)?$/;

function mountPointProblem(mountPoint: string): string | undefined {
  if (!mountPoint.startsWith('/')) return `mount point "${mountPoint}" must start with "/"`;
  if (mountPoint !== '/' && mountPoint.endsWith('/'))
    return `mount point "${mountPoint}" must not end with "/"`;
  if (!MOUNT_POINT_FORM.test(mountPoint))
    return `mount point "${mountPoint}" has empty segments or backslashes`;
  if (mountPoint.split('/').some((s) => s === '.' || s === '..'))
    return `mount point "${mountPoint}" must not contain "." or ".." segments`;
  return undefined;
}

function isInsideOrEqual(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Only the outer shape is checked up front; each mount is then validated on its own. */
const ConfigShapeSchema = z.object({
  mounts: z.array(z.unknown()).min(1, 'at least one mount is required'),
});

const issueText = (i: z.core.$ZodIssue) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`;

/**
 * Validates a sandbox configuration and resolves every mount's host directory.
 * Collects every problem (schema, mount point, host path, overlap) across all
 * mounts and throws one SandboxConfigError naming them all.
 */
export function loadMounts(input: SandboxConfigInput, basePath: string = process.cwd()): Mount[] {
  const shape = ConfigShapeSchema.safeParse(input);
  if (!shape.success) {
    throw new SandboxConfigError(
      shape.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'config'}: ${i.message}`),
    );
  }
  const problems: string[] = [];
  const mounts: Mount[] = [];
  const seen = new Set<string>();
  shape.data.mounts.forEach((raw, index) => {
    const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const rawMountPoint = typeof fields.mountPoint === 'string' ? fields.mountPoint : undefined;
    const label = `mounts[${index}]${rawMountPoint === undefined ? '' : ` (${rawMountPoint})`}`;
    const parsed = MountSchema.safeParse(raw);
    if (!parsed.success) for (const i of parsed.error.issues) problems.push(`${label}: ${issueText(i)}`);
    if (rawMountPoint) {
      const mpProblem = mountPointProblem(rawMountPoint);
      if (mpProblem) problems.push(`${label}: ${mpProblem}`);
      if (seen.has(rawMountPoint)) problems.push(`${label}: duplicate mount point "${rawMountPoint}"`);
      seen.add(rawMountPoint);
    }
    for (const suffix of parsed.data?.suffixes ?? []) {
      if (!suffix.startsWith('.')) problems.push(`${label}: suffix "${suffix}" must start with "."`);
    }
    const rawHostPath =
      typeof fields.hostPath === 'string' && fields.hostPath !== '' ? fields.hostPath : undefined;
    if (rawHostPath === undefined) return;
    const hostPath = path.resolve(basePath, rawHostPath);
    let realRoot: string;
    try {
      realRoot = fs.realpathSync(hostPath);
      if (!fs.statSync(realRoot).isDirectory()) {
        problems.push(`${label}: hostPath "${rawHostPath}" is not a directory`);
        return;
      }
    } catch {
      problems.push(`${label}: hostPath "${rawHostPath}" does not exist`);
      return;
    }
    if (!parsed.success) return;
    const m = parsed.data;
    mounts.push({
      mountPoint: m.mountPoint,
      hostPath,
      realRoot,
      mode: m.mode,
      suffixes: m.suffixes,
      maxFileBytes: m.maxFileBytes,
      writeApproval: m.writeApproval,
      readApproval: m.readApproval,
    });
  });
  // Overlapping host directories would let one mount's permissions leak into another's.
  for (let i = 0; i < mounts.length; i++) {
    for (let j = i + 1; j < mounts.length; j++) {
      const a = mounts[i]!;
      const b = mounts[j]!;
      if (isInsideOrEqual(a.realRoot, b.realRoot) || isInsideOrEqual(b.realRoot, a.realRoot)) {
        problems.push(`mounts ${a.mountPoint} and ${b.mountPoint}: host paths overlap`);
      }
    }
  }
  if (problems.length > 0) throw new SandboxConfigError(problems);
  return mounts;
}
