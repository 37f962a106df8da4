/** Defaults that bound what one tool call may read, return or compute. */
export interface ToolLimits {
  /** read_file: max lines returned per call. */
  readMaxLines: number;
  /** read_file: max characters returned per call. */
  readMaxChars: number;
  /** Largest file any tool will load, when the mount sets no maxFileBytes. */
  maxFileBytes: number;
  /** read_media_file: largest image/audio file returned (base64 grows it by a third). */
  mediaMaxBytes: number;
  /** list_files: max entries returned. */
  listMaxEntries: number;
  /** Work (ms of a typical core, counted in search steps) an approval diff may take before its rest falls back to coarse blocks. */
  diffTimeBudgetMs: number;
  /** Change journal: total bytes of "before" content kept for undo. */
  journalBudgetBytes: number;
}

export const DEFAULT_LIMITS: ToolLimits = {
  readMaxLines: 2_000,
  readMaxChars: 50_000,
  maxFileBytes: 64 * 1024 * 1024,
  mediaMaxBytes: 5 * 1024 * 1024,
  listMaxEntries: 1_000,
  diffTimeBudgetMs: 300,
  journalBudgetBytes: 32 * 1024 * 1024,
};
