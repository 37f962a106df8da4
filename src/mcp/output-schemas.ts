import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { WRITING_TOOLS } from '../tools/dry-run.js';

/*
 * The `structuredContent` of each tool's successful result, as MCP `outputSchema`.
 * Objects are loose (extra fields allowed, e.g. `user_note` from an approval, or
 * fields a later version adds); the fields listed are the ones a client may rely on.
 * Clients such as the SDK's validate every result against these.
 */

const str = z.string();
const int = z.number().int();
const state = { version: int, sha256: str };

const SCHEMAS: Record<string, z.ZodType> = {
  read_file: z.looseObject({
    path: str,
    ...state,
    content: str,
    start_line: int,
    end_line: int,
    total_lines: int,
    truncated: z.boolean(),
    next_offset: int.nullable(),
    line_endings: z.literal('crlf').optional(),
  }),
  read_many_files: z.looseObject({
    files: z.array(z.looseObject({ path: str })),
    total_chars: int,
    truncated: z.boolean(),
  }),
  list_files: z.looseObject({
    path: str,
    pattern: str,
    entries: z.array(str),
    count: int,
    truncated: z.boolean(),
    unreadable: z.array(str).optional(),
  }),
  get_file_info: z.looseObject({
    path: str,
    type: z.enum(['file', 'directory']),
    size: int,
    modified: str,
    accessed: str,
    created: str,
    permissions: str,
    permissions_text: str,
    readable: z.boolean(),
    writable: z.boolean(),
  }),
  read_media_file: z.looseObject({
    path: str,
    kind: z.enum(['image', 'audio']),
    mime_type: str,
    bytes: int,
    sha256: str,
  }),
  write_file: z.looseObject({ path: str, ...state, bytes: int, lines: int, created: z.boolean() }),
  edit_file: z.looseObject({
    path: str,
    ...state,
    replacements_made: int,
    lines_changed: int,
    message: str,
    diff: str,
  }),
  edit_lines: z.looseObject({
    path: str,
    ...state,
    message: str,
    ops_applied: int,
    lines_before: int,
    lines_after: int,
    diff: str,
  }),
  patch_file: z.looseObject({
    success: z.literal(true),
    message: str,
    path: str,
    hunks: int,
    latest_file_state: z.looseObject({ path: str, ...state }),
  }),
  delete_file: z.looseObject({ path: str, deleted: z.literal(true), bytes: int }),
  move_file: z.looseObject({ source: str, destination: str, overwritten: z.boolean() }),
  copy_file: z.looseObject({ source: str, destination: str, bytes: int, overwritten: z.boolean() }),
  create_directory: z.looseObject({ path: str, created: z.boolean() }),
};

/** What `dryRun: true` returns instead (see DryRunOutput). */
const DRY_RUN = z.looseObject({
  dry_run: z.literal(true),
  approval_required: z.boolean(),
  description: str,
  path: str.optional(),
  diff: str.optional(),
  payload: z.looseObject({ type: str, description: str }).optional(),
});

/**
 * A failed call's `structuredContent`. Every outputSchema admits it: the SDK client validates
 * `structuredContent` even on `isError` results, and a mismatch there turns the tool's failure
 * (approval_denied, state_mismatch, …) into a protocol error the model never reads.
 */
const ERROR = z.looseObject({
  error: z.looseObject({
    code: str,
    message: str,
    suggestions: z.array(str).optional(),
    details: z.unknown().optional(),
  }),
});

/** The tool's outputSchema: its result (or, for writing tools, a dry run's) or a failure. */
export function outputJsonSchema(name: string): Tool['outputSchema'] | undefined {
  const result = SCHEMAS[name];
  if (!result) return undefined;
  const schema = WRITING_TOOLS.has(name) ? z.union([result, DRY_RUN, ERROR]) : z.union([result, ERROR]);
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _drop, ...rest } = json;
  // MCP wants an object schema at the top; a union keeps its branches under anyOf.
  return { type: 'object', ...rest } as Tool['outputSchema'];
}
