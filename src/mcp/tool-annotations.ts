import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP tool hints for clients (e.g. to auto-allow read-only tools in their own UI).
 * Hints only: the sandbox and the approval layer decide, whatever a client does with them.
 */
const ANNOTATIONS: Record<string, ToolAnnotations> = {
  read_file: { title: 'Read file', readOnlyHint: true },
  read_many_files: { title: 'Read several files', readOnlyHint: true },
  list_files: { title: 'List files', readOnlyHint: true },
  get_file_info: { title: 'File info', readOnlyHint: true },
  read_media_file: { title: 'Read image or audio', readOnlyHint: true },
  write_file: { title: 'Write file', readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  edit_file: { title: 'Edit file', readOnlyHint: false, destructiveHint: true },
  patch_file: { title: 'Patch file', readOnlyHint: false, destructiveHint: true },
  edit_lines: { title: 'Edit lines', readOnlyHint: false, destructiveHint: true },
  delete_file: { title: 'Delete file', readOnlyHint: false, destructiveHint: true },
  move_file: { title: 'Move file', readOnlyHint: false, destructiveHint: true },
  copy_file: { title: 'Copy file', readOnlyHint: false, destructiveHint: true },
  create_directory: {
    title: 'Create directory',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
  },
};

/** The hints for a tool; every tool works in the sandbox only (closed world). */
export function toolAnnotations(name: string): ToolAnnotations {
  return { ...ANNOTATIONS[name], openWorldHint: false };
}
