import { z } from 'zod';

const anchor = z
  .string()
  .min(1)
  .describe('Anchor from read_file(hashes: true): "HASH", "LINE#HASH" or the whole "LINE#HASH|content".');
const occurrence = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Which match (1-based) when the hash matches several lines.');
const line = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Advisory line number from your read (the hash decides).');
const content = z
  .string()
  .describe(
    'New text; may span several lines. A trailing newline ends the last line; a final blank line is "\\n\\n".',
  );

// `.strict()` makes mixing single-anchor and range fields (e.g. start_hash on replace_line) a validation error.
export const LineEditOpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('replace_line'), hash: anchor, content, occurrence, line }).strict(),
  z.object({ op: z.literal('insert_after'), hash: anchor, content, occurrence, line }).strict(),
  z.object({ op: z.literal('insert_before'), hash: anchor, content, occurrence, line }).strict(),
  z.object({ op: z.literal('delete_line'), hash: anchor, occurrence, line }).strict(),
  z.object({ op: z.literal('replace_range'), start_hash: anchor, end_hash: anchor, content, line }).strict(),
  z.object({ op: z.literal('delete_range'), start_hash: anchor, end_hash: anchor, line }).strict(),
]);

export type LineEditOp = z.infer<typeof LineEditOpSchema>;

/** "12#abc123|text" → { hash: "abc123", line: 12 }. */
export function parseAnchor(raw: string): { hash: string; line?: number } {
  let s = raw.trim();
  const bar = s.indexOf('|');
  if (bar !== -1) s = s.slice(0, bar);
  const hashAt = s.indexOf('#');
  if (hashAt !== -1) {
    const n = Number(s.slice(0, hashAt));
    const hash = s.slice(hashAt + 1).toLowerCase();
    return Number.isInteger(n) && n > 0 ? { hash, line: n } : { hash };
  }
  return { hash: s.toLowerCase() };
}
