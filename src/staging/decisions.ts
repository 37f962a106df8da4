import { z } from 'zod';

/**
 * A person's decision on one file of a change set:
 * - accept: the staged file as it is;
 * - reject: keep the file as it is on disk (a note tells the agent why);
 * - hunks: per hunk id, accept or reject (hunks not named are rejected);
 * - edit: the person's own version of the file.
 */
export const FileDecisionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), note: z.string().optional() }),
  z.object({ action: z.literal('reject'), note: z.string().optional() }),
  z.object({
    action: z.literal('hunks'),
    hunks: z.record(z.string(), z.enum(['accept', 'reject'])),
    notes: z.record(z.string(), z.string()).optional(),
    note: z.string().optional(),
  }),
  z.object({ action: z.literal('edit'), content: z.string(), note: z.string().optional() }),
]);
export type FileDecision = z.infer<typeof FileDecisionSchema>;

/** Decisions for a whole change set, keyed by virtual path; files not named are rejected. */
export const ReviewDecisionsSchema = z.object({
  /** The id of the change set that was reviewed: decisions never apply to a different set. */
  changeSetId: z.string(),
  files: z.record(z.string(), FileDecisionSchema),
  /** A note for the whole review, handed back to the model. */
  note: z.string().optional(),
});
export type ReviewDecisions = z.infer<typeof ReviewDecisionsSchema>;

/** Accepts (or rejects) every file of a set: the decisions of "accept all" / "reject all". */
export function decideAll(
  set: { id: string; files: readonly { path: string }[]; directories?: readonly string[] },
  action: 'accept' | 'reject',
  note?: string,
): ReviewDecisions {
  const paths = [...set.files.map((f) => f.path), ...(set.directories ?? [])];
  return {
    changeSetId: set.id,
    files: Object.fromEntries(paths.map((p) => [p, { action, ...(note ? { note } : {}) }])),
  };
}
