/** What a renderer produces for one payload: a header line, optional warnings, and the body. */
export interface Rendered {
  /** One-line title, e.g. "Edit: /src/main.ts (line 42)  +3 −1". */
  title: string;
  /** Shown in warning colour above the body (overwrite, delete, …). */
  warnings: string[];
  /** Body lines, already sanitised and styled; may be long (the caller pages it). */
  body: string[];
}
