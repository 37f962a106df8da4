import path from 'node:path';
import { z } from 'zod';
import { ApprovalResult } from '../contract/approval-types.js';
import { SandboxError } from '../contract/errors.js';
import type { FileBytes } from '../fs/read-text.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { fileTargetOf } from '../sandbox/target.js';
import { blockedFrom } from './apply-write.js';
import { loadBytes, maxBytesFor } from './file-io.js';
import {
  checkApprovedState,
  checkApprovedTarget,
  checkReadIdentity,
  loadingApproved,
  resolveApproved,
} from './file-state.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool, type ToolContext } from './types.js';

export const ReadMediaFileInput = z.object({
  path: z
    .string()
    .min(1, NONEMPTY_PATH)
    .describe('Virtual path of an image or audio file, e.g. "/assets/logo.png".'),
});
export type ReadMediaFileInput = z.infer<typeof ReadMediaFileInput>;

export interface ReadMediaFileOutput {
  path: string;
  kind: 'image' | 'audio';
  mime_type: string;
  bytes: number;
  sha256: string;
  /** The file's bytes, base64 (an MCP server sends them as an image or audio content block). */
  data: string;
}

/** The media types a model client can show, by extension (as the reference filesystem server does). */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
};

export const readMediaFile: SandboxTool<ReadMediaFileInput, ReadMediaFileOutput> = {
  name: 'read_media_file',
  description: [
    `Read an image or audio file (${Object.keys(MEDIA_TYPES).join(', ')}) as base64 data with its MIME type; over MCP it comes back as image/audio content.`,
    'Files larger than the media size limit are refused. For text files use read_file.',
  ].join(' '),
  inputSchema: ReadMediaFileInput,

  async needsApproval(input, ctx) {
    try {
      const resolved = ctx.sandbox.resolve(input.path, 'read');
      mediaType(resolved.virtualPath);
      if (!resolved.mount.readApproval) return ApprovalResult.preApproved();
      // The file shown is bound: its identity (targets) and its bytes (baseSha256).
      const file = await loadMedia(ctx, resolved);
      return ApprovalResult.needsApproval(
        {
          type: 'read',
          description: `Read ${resolved.virtualPath} (${mediaType(resolved.virtualPath)})`,
          path: resolved.virtualPath,
          mount: resolved.mount.mountPoint,
          baseSha256: file.sha256,
          fileLines: 0,
          fileBytes: file.bytes,
          fileExists: true,
        },
        { path: fileTargetOf(resolved) },
      );
    } catch (error) {
      return blockedFrom(error);
    }
  },

  async execute(input, ctx) {
    const resolved = resolveApproved(ctx, 'path', input.path, 'read');
    const mime = mediaType(resolved.virtualPath);
    // An approved read reads the file the person approved, as it was shown.
    checkApprovedTarget(ctx, 'path', resolved);
    const file = await loadingApproved(ctx, 'path', resolved, () => loadMedia(ctx, resolved));
    checkReadIdentity(ctx, 'path', resolved.virtualPath, file);
    checkApprovedState(ctx, resolved.virtualPath, ctx.approvedBaseSha256, file);
    return {
      path: resolved.virtualPath,
      kind: mime.startsWith('image/') ? 'image' : 'audio',
      mime_type: mime,
      bytes: file.bytes,
      sha256: file.sha256,
      data: file.data.toString('base64'),
    };
  },
};

/** A media file's bytes, the media size cap checked on the stat and again on the open file. */
async function loadMedia(ctx: ToolContext, resolved: ResolvedPath): Promise<FileBytes> {
  const max = Math.min(ctx.limits.mediaMaxBytes, maxBytesFor(ctx, resolved));
  if ((resolved.size ?? 0) > max) throw tooLarge(resolved.virtualPath, resolved.size ?? 0, max);
  const file = await loadBytes(ctx, { ...resolved, mount: { ...resolved.mount, maxFileBytes: max } });
  if (!file) throw toolError('not_found', `${resolved.virtualPath} does not exist.`);
  return file;
}

function mediaType(virtualPath: string): string {
  const ext = path.posix.extname(virtualPath).toLowerCase();
  const mime = MEDIA_TYPES[ext];
  if (!mime) {
    throw toolError(
      'invalid_argument',
      `${virtualPath} is not an image or audio file this tool reads (${Object.keys(MEDIA_TYPES).join(', ')}).`,
      { suggestions: [`read_file(path="${virtualPath}")`] },
    );
  }
  return mime;
}

function tooLarge(virtualPath: string, bytes: number, max: number) {
  return new SandboxError(
    'file_too_large',
    `${virtualPath} is ${bytes} bytes; media files may be at most ${max} bytes here.`,
    { details: { bytes, maxBytes: max } },
  );
}
