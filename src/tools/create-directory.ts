import path from 'node:path';
import { z } from 'zod';
import { ApprovalResult } from '../contract/approval-types.js';
import { SandboxError } from '../contract/errors.js';
import { type DirHandle, openDirectoryInside } from '../fs/dir-handle.js';
import type { ResolvedPath, Sandbox } from '../sandbox/sandbox.js';
import { blockedFrom } from './apply-write.js';
import { checkApprovedTarget, resolveApproved, targetToCreate } from './file-state.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool } from './types.js';

export const CreateDirectoryInput = z.object({
  path: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of the directory, e.g. "/src/utils".'),
});
export type CreateDirectoryInput = z.infer<typeof CreateDirectoryInput>;

export interface CreateDirectoryOutput {
  path: string;
  /** false when the directory already existed (nothing was changed). */
  created: boolean;
}

interface Plan {
  virtualPath: string;
  /** The deepest existing directory on the way (verified inside its mount). */
  existing: ResolvedPath;
  /** Names still to create below it, outermost first. */
  missing: string[];
}

/**
 * Where the directory goes: write permission on the path, then the deepest
 * existing ancestor as the sandbox resolves it (symlinks followed and contained).
 */
function plan(sandbox: Sandbox, input: CreateDirectoryInput): Plan {
  const virtualPath = sandbox.normalize(input.path);
  const mount = sandbox.mountFor(virtualPath);
  if (!mount) sandbox.resolve(virtualPath, 'list'); // throws path_not_in_sandbox, naming what is allowed
  if (!sandbox.canWrite(virtualPath)) {
    throw toolError(
      'path_not_writable',
      `${virtualPath} is not writable. Directories can be created under: ${sandbox.writableRoots.join(', ') || '(nowhere: the sandbox is read-only)'}.`,
      { suggestions: sandbox.writableRoots.slice(0, 3) },
    );
  }
  const missing: string[] = [];
  let current = virtualPath;
  for (;;) {
    try {
      const existing = sandbox.resolve(current, 'list');
      if (existing.kind !== 'directory') {
        throw toolError(
          'not_a_file',
          `${current} is a file, so ${virtualPath} cannot be created as a directory.`,
        );
      }
      return { virtualPath, existing, missing };
    } catch (error) {
      const atMount = current === mount?.mountPoint;
      if (!(error instanceof SandboxError) || error.code !== 'not_found' || atMount) throw error;
      missing.unshift(path.posix.basename(current));
      current = path.posix.dirname(current);
    }
  }
}

/** Creates the directory and any missing parents (like `mkdir -p`); an existing directory is fine. */
export const createDirectory: SandboxTool<CreateDirectoryInput, CreateDirectoryOutput> = {
  name: 'create_directory',
  description:
    'Create a directory (and any missing parent directories) in the sandbox. Succeeds with `created: false` if it already exists. Files can be written without this: write_file creates parent directories itself.',
  inputSchema: CreateDirectoryInput,

  async needsApproval(input, ctx) {
    try {
      const p = plan(ctx.sandbox, input);
      if (p.missing.length === 0 || !p.existing.mount.writeApproval) return ApprovalResult.preApproved();
      const target = targetToCreate(ctx.sandbox, p.virtualPath);
      return ApprovalResult.needsApproval(
        {
          type: 'generic',
          description: `Create directory ${p.virtualPath}`,
          path: p.virtualPath,
          mount: p.existing.mount.mountPoint,
          toolName: 'create_directory',
          args: { path: p.virtualPath },
        },
        // Bound like a file to create: the deepest existing directory's identity and the names below it.
        target ? { path: target } : undefined,
      );
    } catch (error) {
      return blockedFrom(error);
    }
  },

  async execute(input, ctx) {
    if (ctx.approvedTargets?.path) {
      // What was approved is still what is there: nothing appeared at the path, no directory
      // on the way was swapped (anything else is stale_approval, nothing created).
      const now = resolveApproved(ctx, 'path', input.path, 'write');
      checkApprovedTarget(ctx, 'path', now);
    }
    const p = plan(ctx.sandbox, input);
    if (p.missing.length === 0) return { path: p.virtualPath, created: false };
    if (ctx.staging) {
      let host = p.existing.hostPath;
      let virtual = p.existing.virtualPath;
      for (const name of p.missing) {
        host = path.join(host, name);
        virtual = virtual === '/' ? `/${name}` : `${virtual}/${name}`;
        ctx.staging.mkdir(host, virtual);
      }
      return { path: p.virtualPath, created: true };
    }
    const realRoot = p.existing.mount.realRoot;
    const options = { create: true, displayPath: p.virtualPath };
    // Each level is created through the held parent directory: a swapped-in symlink cannot redirect it.
    let dir: DirHandle = await openDirectoryInside(p.existing.hostPath, realRoot, {
      ...options,
      create: false,
    });
    try {
      for (const name of p.missing) {
        const next = await dir.subdirectory(name, realRoot, options);
        await dir.close();
        dir = next;
      }
    } finally {
      await dir.close();
    }
    return { path: p.virtualPath, created: true };
  },
};
