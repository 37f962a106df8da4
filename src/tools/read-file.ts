import { z } from 'zod';
import { ApprovalResult } from '../approval/types.js';
import { renderHashedLines } from '../edit/line-hash.js';
import { loadFile } from './file-io.js';
import { countLines, toModelText } from './text-stats.js';
import { toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool } from './types.js';
import { blockedFrom } from './writer.js';

export const ReadFileInput = z.object({
  path: z.string().min(1, NONEMPTY_PATH).describe('Virtual path of the file, e.g. "/src/index.ts".'),
  offset: z.number().int().min(1).optional().describe('1-based line to start at (default 1).'),
  limit: z.number().int().min(1).optional().describe('Maximum number of lines to return.'),
  hashes: z
    .boolean()
    .optional()
    .describe('Prefix each line with "LINE#HASH|" anchors for edit_lines (default false).'),
});
export type ReadFileInput = z.infer<typeof ReadFileInput>;

export interface ReadFileOutput {
  path: string;
  version: number;
  sha256: string;
  content: string;
  start_line: number;
  end_line: number;
  total_lines: number;
  truncated: boolean;
  next_offset: number | null;
  /** Present when the file uses CRLF line endings (content is shown with LF). */
  line_endings?: 'crlf';
}

export const readFile: SandboxTool<ReadFileInput, ReadFileOutput> = {
  name: 'read_file',
  description: [
    'Read a text file from the sandbox, a page of lines at a time.',
    'Returns content plus `version` and `sha256`: keep the sha256 and pass it as `base_sha256` to write_file, edit_file or patch_file so your change is refused (not misapplied) if the file changed meanwhile.',
    'Long files are paged: when `truncated` is true, call again with `offset = next_offset`.',
    'Set `hashes: true` to get each line as `LINE#HASH|content`, the anchors edit_lines needs.',
    'Paths are virtual (e.g. "/src/app.ts"); only the sandbox\'s mounts are reachable.',
  ].join(' '),
  inputSchema: ReadFileInput,

  async needsApproval(input, ctx) {
    try {
      const resolved = ctx.sandbox.resolve(input.path, 'read');
      if (!resolved.mount.readApproval) return ApprovalResult.preApproved();
      const file = await loadFile(ctx, resolved);
      return ApprovalResult.needsApproval({
        type: 'read',
        description: `Read ${resolved.virtualPath}`,
        path: resolved.virtualPath,
        mount: resolved.mount.mountPoint,
        baseSha256: file?.sha256 ?? null,
        fileLines: file ? countLines(file.text) : 0,
        fileBytes: file?.bytes ?? 0,
        fileExists: file !== undefined,
      });
    } catch (error) {
      return blockedFrom(error);
    }
  },

  async execute(input, ctx) {
    const resolved = ctx.sandbox.resolve(input.path, 'read');
    const file = await loadFile(ctx, resolved);
    if (!file) throw toolError('not_found', `${resolved.virtualPath} does not exist.`);
    const raw = file.text;
    const text = toModelText(raw);
    const lines = text.length === 0 ? [] : text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    const total = lines.length;
    const start = input.offset ?? 1;
    if (total > 0 && start > total) {
      throw toolError(
        'invalid_argument',
        `offset ${start} is past the end of ${resolved.virtualPath} (${total} lines).`,
        {
          suggestions: [`read_file(path="${resolved.virtualPath}", offset=1)`],
        },
      );
    }
    const maxLines = Math.min(input.limit ?? ctx.limits.readMaxLines, ctx.limits.readMaxLines);
    const picked: string[] = [];
    let chars = 0;
    let cutLine = false;
    for (let i = start - 1; i < total && picked.length < maxLines; i++) {
      let line = lines[i]!;
      if (chars + line.length + 1 > ctx.limits.readMaxChars) {
        if (picked.length > 0) break;
        // A single line longer than the cap: return its start rather than nothing.
        line = line.slice(0, ctx.limits.readMaxChars);
        cutLine = true;
      }
      picked.push(line);
      chars += line.length + 1;
    }
    const endLine = start + picked.length - 1;
    const truncated = endLine < total || cutLine;
    const content = input.hashes ? renderHashedLines(picked, start) : picked.join('\n');
    const state = ctx.state.record(resolved.virtualPath, file.sha256);
    if (input.hashes) ctx.anchors.set(resolved.virtualPath, raw);
    return {
      path: resolved.virtualPath,
      version: state.version,
      sha256: file.sha256,
      content,
      start_line: picked.length ? start : 0,
      end_line: picked.length ? endLine : 0,
      total_lines: total,
      truncated,
      next_offset: endLine < total ? endLine + 1 : null,
      ...(raw.includes('\r\n') ? { line_endings: 'crlf' as const } : {}),
    };
  },
};
