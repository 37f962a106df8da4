import type { CallTargets } from './approval-types.js';

/** Per-call information supplied by the caller (framework adapter or approval layer). */
export interface ToolCallContext {
  toolCallId?: string;
  /**
   * Set by the approval layer: the file state the user approved (payload.baseSha256).
   * `null` means the user approved creating a file that did not exist. If the file
   * differs at execution time the tool refuses with `stale_approval`.
   */
  approvedBaseSha256?: string | null;
  /** Same, for the destination of move/copy. */
  approvedDestinationSha256?: string | null;
  /**
   * edit_lines: the hashed read its anchors were resolved against when the user
   * approved (payload.anchorsSha256). A different read at execution would move
   * the anchors, so the tool refuses with `stale_approval`.
   */
  approvedAnchorsSha256?: string | null;
  /**
   * The files the user approved the call for (real paths, links, identities): at
   * execution each is re-resolved under the file lock; any difference → stale_approval.
   */
  approvedTargets?: CallTargets;
  /** The arguments are a person's own edit: their text is applied exactly as written. */
  verbatim?: boolean;
}
