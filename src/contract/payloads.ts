import { z } from 'zod';

/**
 * Typed approval payloads: one shape per kind of change, so each UI can show it
 * as what it is (a diff, a new file, a deletion). The tool computes
 * them during needsApproval; the UI renders them; the approval layer binds the
 * decision to `baseSha256` (the file state the user was shown).
 */
const base = {
  description: z.string(),
  /** Virtual path of the (first) file concerned. */
  path: z.string(),
  /** Mount point the path lives under. */
  mount: z.string(),
  /** SHA-256 of the file content shown to the user; null when the file does not exist yet. */
  baseSha256: z.string().nullable().optional(),
  /**
   * Set when the path named leads through symbolic links: the real virtual path
   * the call acts on, and the links followed on the way (virtual paths, in order).
   */
  resolved: z.object({ path: z.string(), via: z.array(z.string()) }).optional(),
};

/** Diff stats are counted on the FULL diff, even when a view is cut. */
const diffFields = {
  unifiedDiff: z.string(),
  diffLines: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  /** True when the diff fell back to a coarse block diff (time budget exceeded). */
  diffCoarse: z.boolean().optional(),
};

const WritePayloadSchema = z.object({
  type: z.literal('write'),
  ...base,
  content: z.string(),
  contentLines: z.number().int(),
  contentBytes: z.number().int(),
  preview: z.string(),
  previewTruncated: z.boolean(),
  fileExists: z.boolean(),
  existingLines: z.number().int().nullable(),
  existingBytes: z.number().int().nullable(),
  unifiedDiff: z.string().optional(),
  diffLines: z.number().int().optional(),
  added: z.number().int().optional(),
  removed: z.number().int().optional(),
  diffCoarse: z.boolean().optional(),
});

const EditPayloadSchema = z.object({
  type: z.literal('edit'),
  ...base,
  ...diffFields,
  oldString: z.string(),
  newString: z.string(),
  replaceAll: z.boolean(),
  matchLine: z.number().int(),
  matchCount: z.number().int(),
  /** Which level of the matching cascade found old_string. */
  matchLevel: z.enum(['exact', 'trailing_whitespace', 'indentation', 'unicode']),
  contextBefore: z.string(),
  contextAfter: z.string(),
  fileLines: z.number().int(),
  fileBytes: z.number().int(),
});

const PatchPayloadSchema = z.object({
  type: z.literal('patch'),
  ...base,
  ...diffFields,
  /** The diff as the model sent it; unifiedDiff is the corrected one that will be applied. */
  requestedDiff: z.string(),
  relocated: z.boolean(),
  hunks: z.number().int(),
  fileExists: z.boolean(),
  fileLines: z.number().int(),
  fileBytes: z.number().int(),
});

const LinesEditPayloadSchema = z.object({
  type: z.literal('lines'),
  ...base,
  ...diffFields,
  operations: z.number().int(),
  /** One human-readable line per operation, e.g. "replace_line 42". */
  summary: z.array(z.string()),
  /** SHA-256 of the hashed read the anchors were resolved against (null: no read, anchors matched the file as is). */
  anchorsSha256: z.string().nullable().optional(),
  fileLines: z.number().int(),
  fileBytes: z.number().int(),
});

const ReadPayloadSchema = z.object({
  type: z.literal('read'),
  ...base,
  fileLines: z.number().int(),
  fileBytes: z.number().int(),
  fileExists: z.boolean(),
});

/**
 * Set when the path named is a symbolic link: the tool acts on the link itself
 * (as rm, mv and cp -P do), never on the file it points to. `target` is a virtual
 * path or a phrase such as "outside the sandbox" (never a host path);
 * `targetAfter` is where the moved or copied link will point from its new place.
 */
const symlinkField = {
  symlink: z.object({ target: z.string(), targetAfter: z.string().optional() }).optional(),
};

const DeletePayloadSchema = z.object({
  type: z.literal('delete'),
  ...base,
  fileLines: z.number().int(),
  fileBytes: z.number().int(),
  /** First lines of the file being deleted. */
  preview: z.string(),
  previewTruncated: z.boolean(),
  ...symlinkField,
});

const transferFields = {
  source: z.string(),
  destination: z.string(),
  destinationMount: z.string(),
  destinationExists: z.boolean(),
  overwrite: z.boolean(),
  /** SHA-256 of the destination the user was shown (when it exists). */
  destinationSha256: z.string().nullable().optional(),
  fileBytes: z.number().int(),
  ...symlinkField,
};

const MovePayloadSchema = z.object({ type: z.literal('move'), ...base, ...transferFields });
const CopyPayloadSchema = z.object({ type: z.literal('copy'), ...base, ...transferFields });

const ListPayloadSchema = z.object({
  type: z.literal('list'),
  ...base,
  pattern: z.string(),
});

/** For tools without a dedicated payload (custom toolsets, unknown tools). */
const GenericPayloadSchema = z.object({
  type: z.literal('generic'),
  ...base,
  toolName: z.string(),
  args: z.unknown(),
});

export const ApprovalPayloadSchema = z.discriminatedUnion('type', [
  WritePayloadSchema,
  EditPayloadSchema,
  PatchPayloadSchema,
  LinesEditPayloadSchema,
  ReadPayloadSchema,
  DeletePayloadSchema,
  MovePayloadSchema,
  CopyPayloadSchema,
  ListPayloadSchema,
  GenericPayloadSchema,
]);

export type WritePayload = z.infer<typeof WritePayloadSchema>;
export type EditPayload = z.infer<typeof EditPayloadSchema>;
export type PatchPayload = z.infer<typeof PatchPayloadSchema>;
export type LinesEditPayload = z.infer<typeof LinesEditPayloadSchema>;
export type ReadPayload = z.infer<typeof ReadPayloadSchema>;
export type DeletePayload = z.infer<typeof DeletePayloadSchema>;
export type MovePayload = z.infer<typeof MovePayloadSchema>;
export type CopyPayload = z.infer<typeof CopyPayloadSchema>;
export type ListPayload = z.infer<typeof ListPayloadSchema>;
export type GenericPayload = z.infer<typeof GenericPayloadSchema>;
export type ApprovalPayload = z.infer<typeof ApprovalPayloadSchema>;
export type ApprovalPayloadType = ApprovalPayload['type'];

/** Lines shown in a write/delete preview. */
export const PREVIEW_LINES = 50;
/** Characters shown in a write/delete preview at most (a minified file is one huge line). */
export const PREVIEW_CHARS = 20_000;
/** Characters of one context line shown in an edit payload; the rest is counted. */
export const CONTEXT_LINE_CHARS = 1_000;
