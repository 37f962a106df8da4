/** One applied change, as listed to callers (no content, no host paths). */
export interface ChangeRecord {
  id: number;
  toolName: string;
  /** Virtual path changed (for a move: the destination). */
  path: string;
  /** For a move: where the file came from. */
  fromPath?: string;
  /** null when the change created the file. */
  beforeSha256: string | null;
  /** null when the change deleted the file. */
  afterSha256: string | null;
  /** Whether the before content is still kept (false once evicted by the byte budget). */
  undoable: boolean;
  at: string;
}
