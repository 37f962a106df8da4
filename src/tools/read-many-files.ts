import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApprovalResult } from '../contract/approval-types.js';
import type { ToolErrorInfo } from '../contract/tool-outcome.js';
import type { ResolvedPath } from '../sandbox/sandbox.js';
import { loadBytes, loadFile } from './file-io.js';
import { countLines, toModelText } from './text-stats.js';
import { toErrorInfo, toolError } from './tool-error.js';
import { NONEMPTY_PATH, type SandboxTool, type ToolContext } from './types.js';

/** Most files one call may name: a bound on work per call, not on the sandbox. */
const READ_MANY_MAX_FILES = 50;

export const ReadManyFilesInput = z.object({
  paths: z
    .array(z.string().min(1, NONEMPTY_PATH))
    .min(1, 'name at least one file')
    .max(READ_MANY_MAX_FILES, `name at most ${READ_MANY_MAX_FILES} files per call`)
    .describe('Virtual paths of the files to read, e.g. ["/src/a.ts", "/src/b.ts"].'),
});
export type ReadManyFilesInput = z.infer<typeof ReadManyFilesInput>;

export type ReadManyFileEntry =
  | {
      path: string;
      version: number;
      sha256: string;
      content: string;
      total_lines: number;
      /** Lines returned (from line 1); fewer than total_lines when the total budget ran out. */
      returned_lines: number;
      truncated: boolean;
      line_endings?: 'crlf';
    }
  | { path: string; error: ToolErrorInfo };

export interface ReadManyFilesOutput {
  files: ReadManyFileEntry[];
  /** Characters of content returned, at most the toolset's readMaxChars. */
  total_chars: number;
  truncated: boolean;
}

/**
 * Several files in one call, so a model gathering context spends one round trip. Each
 * file carries its version and sha256; a file that cannot be read gets its own
 * error entry and does not fail the others. The content of all files together
 * is bounded by readMaxChars: files past the budget come back cut at a line
 * boundary (or empty) with `truncated: true`, to be read with read_file.
 */
export const readManyFiles: SandboxTool<ReadManyFilesInput, ReadManyFilesOutput> = {
  name: 'read_many_files',
  description: [
    'Read several text files from the sandbox in one call.',
    'Each file comes back with `version` and `sha256` (pass sha256 as `base_sha256` when you change it) or with its own error; one bad path does not fail the others.',
    'The total size is bounded: a file marked `truncated` was cut to fit; read the rest with read_file(path, offset).',
    'Paths are virtual (e.g. "/src/app.ts").',
  ].join(' '),
  inputSchema: ReadManyFilesInput,

  async needsApproval(input, ctx) {
    // Files that cannot be resolved are reported per file by execute, not blocked here.
    const asking: ResolvedPath[] = [];
    for (const p of input.paths) {
      try {
        const resolved = ctx.sandbox.resolve(p, 'read');
        if (resolved.mount.readApproval) asking.push(resolved);
      } catch {}
    }
    const first = asking[0];
    if (!first) return ApprovalResult.preApproved();
    const names = asking.map((r) => r.virtualPath);
    const mounts = new Set(asking.map((r) => r.mount.mountPoint));
    // A generic payload (the read payload describes one file). path and mount name what a remembered
    // approval may cover: one file only when one file asks, one mount only when all are under it,
    // so remembering never extends to files the person was not shown.
    return ApprovalResult.needsApproval({
      type: 'generic',
      description: `Read ${names.length === 1 ? first.virtualPath : `${names.length} files: ${names.join(', ')}`}`,
      path: names.length === 1 ? first.virtualPath : '',
      mount: mounts.size === 1 ? first.mount.mountPoint : '',
      // The files shown, bound as one state: each one's real path, identity and bytes.
      baseSha256: await askedState(ctx, input.paths),
      toolName: 'read_many_files',
      args: { paths: names },
    });
  },

  async execute(input, ctx) {
    // An approved read reads the files the person approved, as they were: any of them
    // replaced, removed or changed since makes the whole call stale.
    if (
      ctx.approvedBaseSha256 !== undefined &&
      (await askedState(ctx, input.paths)) !== ctx.approvedBaseSha256
    )
      throw toolError(
        'stale_approval',
        'A file the user approved reading was changed, replaced or removed after the approval, so nothing was read. Make the call again to have it approved as it is.',
      );
    let budget = ctx.limits.readMaxChars;
    const files: ReadManyFileEntry[] = [];
    for (const p of input.paths) {
      try {
        const resolved = ctx.sandbox.resolve(p, 'read');
        const since = ctx.state.now();
        const file = await loadFile(ctx, resolved);
        if (!file) throw toolError('not_found', `${resolved.virtualPath} does not exist.`);
        const text = toModelText(file.text);
        const total = countLines(text);
        const content = text.length <= budget ? text : cutAtLine(text, budget);
        budget -= content.length;
        const state = ctx.state.recordRead(resolved.virtualPath, file.sha256, since);
        files.push({
          path: resolved.virtualPath,
          version: state.version,
          sha256: file.sha256,
          content,
          total_lines: total,
          returned_lines: content === text ? total : countLines(content),
          truncated: content !== text,
          ...(file.text.includes('\r\n') ? { line_endings: 'crlf' as const } : {}),
        });
      } catch (error) {
        files.push({ path: p, error: toErrorInfo(error) });
      }
    }
    const totalChars = ctx.limits.readMaxChars - budget;
    return { files, total_chars: totalChars, truncated: files.some((f) => 'truncated' in f && f.truncated) };
  },
};

/** The longest prefix of whole lines that fits in `max` characters. */
function cutAtLine(text: string, max: number): string {
  if (max <= 0) return '';
  const nl = text.lastIndexOf('\n', max - 1);
  return nl === -1 ? '' : text.slice(0, nl + 1);
}

/**
 * The state of the files of a call that need a read approval, as one SHA-256: for each
 * (in order) the name, the real path, the file's identity and the SHA-256 of its bytes,
 * or why it cannot be read. Equal before the prompt and at execution only when every
 * file asked about is the very same file with the very same bytes.
 */
async function askedState(ctx: ToolContext, paths: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const p of paths) {
    let resolved: ResolvedPath;
    try {
      resolved = ctx.sandbox.resolve(p, 'read');
    } catch (error) {
      // Unresolvable now: fine only if it did not need asking (its error is reported per file).
      hash.update(`${p}\0unresolved\0${toErrorInfo(error).code}\n`);
      continue;
    }
    if (!resolved.mount.readApproval && !resolved.target?.mount.readApproval) continue;
    let state: string;
    try {
      const file = await loadBytes(ctx, resolved);
      state = file ? `${file.identity ?? ''}\0${file.born ?? ''}\0${file.sha256}` : 'missing';
    } catch (error) {
      state = `error ${toErrorInfo(error).code}`;
    }
    hash.update(`${p}\0${resolved.virtualPath}\0${resolved.hostPath}\0${state}\n`);
  }
  return hash.digest('hex');
}
