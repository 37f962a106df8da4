import type { LineSource } from './diff-view.js';

/** What a renderer produces for one payload: a header line, optional warnings, and the body. */
export interface Rendered {
  /** One-line title, e.g. "Edit: /src/main.ts (line 42)  +3 −1". */
  title: string;
  /** The (sanitised) paths as they appear in the title: a title too wide is cut in their middle, keeping file names. */
  paths?: string[];
  /** Shown in warning colour above the body (overwrite, delete, …). */
  warnings: string[];
  /** Body lines, sanitised and styled, produced on demand (a 100,000-line diff is paged, not rendered). */
  body: LineSource;
}
