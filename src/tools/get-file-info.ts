import fs from 'node:fs/promises';
import { z } from 'zod';
import { ApprovalResult } from '../contract/approval-types.js';
import { blockedFrom } from './apply-write.js';
import { NONEMPTY_PATH, type SandboxTool } from './types.js';

export const GetFileInfoInput = z.object({
  path: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of a file or directory.'),
});
export type GetFileInfoInput = z.infer<typeof GetFileInfoInput>;

export interface GetFileInfoOutput {
  path: string;
  type: 'file' | 'directory';
  /** Bytes (for a directory, what the file system reports for the directory itself). */
  size: number;
  /** ISO 8601 times. `created` is the birth time where the file system records one. */
  modified: string;
  accessed: string;
  created: string;
  /** Unix permission bits, e.g. "644", and as rwx text, e.g. "rw-r--r--". */
  permissions: string;
  permissions_text: string;
  /** What the sandbox lets a tool do here (not the host's permissions). */
  readable: boolean;
  writable: boolean;
}

const RWX = ['---', '--x', '-w-', '-wx', 'r--', 'r-x', 'rw-', 'rwx'];

export const getFileInfo: SandboxTool<GetFileInfoInput, GetFileInfoOutput> = {
  name: 'get_file_info',
  description: [
    'Metadata of a file or directory without reading it: type, size, modified/accessed/created times, permissions, and whether the sandbox lets you write there.',
    'Paths are virtual; a symbolic link is described by what it points to (inside the sandbox only).',
  ].join(' '),
  inputSchema: GetFileInfoInput,

  async needsApproval(input, ctx) {
    try {
      ctx.sandbox.resolve(input.path, 'list');
      return ApprovalResult.preApproved();
    } catch (error) {
      return blockedFrom(error);
    }
  },

  async execute(input, ctx) {
    const resolved = ctx.sandbox.resolve(input.path, 'list');
    // resolve() checked the real path lies inside the mount; the stat is of that real path.
    const stat = await fs.stat(resolved.hostPath);
    const mode = stat.mode & 0o777;
    const octal = mode.toString(8).padStart(3, '0');
    return {
      path: resolved.virtualPath,
      type: stat.isDirectory() ? 'directory' : 'file',
      size: stat.size,
      modified: stat.mtime.toISOString(),
      accessed: stat.atime.toISOString(),
      created: (stat.birthtimeMs > 0 ? stat.birthtime : stat.ctime).toISOString(),
      permissions: octal,
      permissions_text: [...octal].map((d) => RWX[Number(d)]).join(''),
      ...access(ctx.sandbox, input.path, resolved.virtualPath, stat.isDirectory()),
    };
  },
};

type Sandbox = Parameters<SandboxTool<unknown, unknown>['execute']>[1]['sandbox'];

/**
 * Readable/writable as read_file/write_file would find them: a file goes through the same
 * resolve() checks (mount mode, suffix rules, size-free) by the name given and by where it
 * really leads; a directory by its mount's mode.
 */
function access(sandbox: Sandbox, asked: string, real: string, directory: boolean) {
  if (directory) return { readable: sandbox.canRead(real), writable: sandbox.canWrite(real) };
  const allows = (op: 'read' | 'write') => {
    try {
      sandbox.resolve(asked, op);
      sandbox.resolve(real, op);
      return true;
    } catch {
      return false;
    }
  };
  return { readable: allows('read'), writable: allows('write') };
}
