import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SandboxConfigError } from './errors.js';

export const MountSchema = z.object({
  hostPath: z.string().min(1, 'hostPath must not be empty'),
  mountPoint: z.string().min(1, 'mountPoint must not be empty'),
  mode: z.enum(['ro', 'rw']).default('ro'),
  suffixes: z.array(z.string().min(1)).optional(),
  maxFileBytes: z.number().int().positive().optional(),
  writeApproval: z.boolean().default(true),
  readApproval: z.boolean().default(false),
});

export const SandboxConfigSchema = z.object({
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

/**
 * Validates a sandbox configuration and resolves every mount's host directory.
 * Collects every problem and throws one SandboxConfigError naming them all.
 */
export function loadMounts(input: SandboxConfigInput, basePath: string = process.cwd()): Mount[] {
  const parsed = SandboxConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new SandboxConfigError(
      parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'config'}: ${i.message}`),
    );
  }
  const problems: string[] = [];
  const mounts: Mount[] = [];
  const seen = new Set<string>();
  parsed.data.mounts.forEach((m, index) => {
    const label = `mounts[${index}] (${m.mountPoint})`;
    const mpProblem = mountPointProblem(m.mountPoint);
    if (mpProblem) problems.push(`${label}: ${mpProblem}`);
    if (seen.has(m.mountPoint)) problems.push(`${label}: duplicate mount point "${m.mountPoint}"`);
    seen.add(m.mountPoint);
    for (const suffix of m.suffixes ?? []) {
      if (!suffix.startsWith('.')) problems.push(`${label}: suffix "${suffix}" must start with "."`);
    }
    const hostPath = path.resolve(basePath, m.hostPath);
    let realRoot: string;
    try {
      realRoot = fs.realpathSync(hostPath);
      if (!fs.statSync(realRoot).isDirectory()) {
        problems.push(`${label}: hostPath "${m.hostPath}" is not a directory`);
        return;
      }
    } catch {
      problems.push(`${label}: hostPath "${m.hostPath}" does not exist`);
      return;
    }
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
