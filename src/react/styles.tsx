import type { ReactElement } from 'react';

/** Default look of the components (class names prefixed `sa-`); override or replace freely. */
export const sandboxApprovalCss = `
.sa-card { border: 1px solid #c9d1d9; border-radius: 8px; padding: 12px; margin: 8px 0; background: #fff; color: #1f2328; font: 14px/1.45 system-ui, sans-serif; }
.sa-card:focus { outline: 3px solid #0969da; outline-offset: 2px; }
.sa-heading { font-size: 12px; color: #59636e; margin-bottom: 6px; }
.sa-heading kbd { border: 1px solid #c9d1d9; border-radius: 3px; padding: 0 4px; font-size: 11px; }
.sa-title { font-weight: 600; display: flex; gap: 12px; align-items: baseline; margin-bottom: 6px; overflow-wrap: anywhere; }
.sa-stats { font-family: ui-monospace, monospace; font-weight: 400; }
.sa-plus { color: #1a7f37; } .sa-minus { color: #cf222e; }
.sa-warning { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: 6px 8px; margin: 6px 0; }
.sa-diff { font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; border: 1px solid #d1d9e0; border-radius: 6px; overflow-x: auto; margin: 6px 0; }
.sa-row { display: flex; white-space: pre; min-width: max-content; }
.sa-no { color: #8c959f; padding: 0 6px; user-select: none; text-align: right; }
.sa-sign { width: 1.2em; text-align: center; user-select: none; }
.sa-text { padding-right: 12px; }
.sa-add { background: #dafbe1; } .sa-del { background: #ffebe9; }
.sa-word-add { background: #aceebb; color: inherit; border-radius: 2px; }
.sa-word-del { background: #ffcecb; color: inherit; border-radius: 2px; text-decoration: line-through; }
.sa-hunk { background: #ddf4ff; color: #0550ae; padding: 0 8px; }
.sa-note { color: #59636e; }
.sa-more { color: #59636e; font-style: italic; }
.sa-gap { display: block; width: 100%; text-align: left; background: #f6f8fa; color: #59636e; border: 0; border-top: 1px dashed #d1d9e0; border-bottom: 1px dashed #d1d9e0; padding: 2px 8px; font: inherit; cursor: pointer; }
.sa-gap-static { cursor: default; }
.sa-not-shown { display: block; padding: 2px 8px; background: #fff8c5; border-bottom: 1px solid #d4a72c; }
.sa-args { background: #f6f8fa; padding: 8px; border-radius: 6px; overflow-x: auto; }
.sa-actions { display: flex; gap: 8px; margin-top: 8px; }
.sa-button { font: inherit; padding: 5px 14px; border-radius: 6px; border: 1px solid #c9d1d9; background: #f6f8fa; cursor: pointer; }
.sa-button:focus-visible { outline: 2px solid #0969da; outline-offset: 2px; }
.sa-approve-button { background: #1f883d; color: #fff; border-color: #1a7f37; }
.sa-deny-button { color: #cf222e; }
.sa-deny { margin-top: 8px; display: flex; flex-direction: column; gap: 4px; }
.sa-deny textarea { font: inherit; padding: 6px; border-radius: 6px; border: 1px solid #c9d1d9; }
.sa-status { padding: 6px 10px; margin: 6px 0; border-radius: 6px; background: #f6f8fa; overflow-wrap: anywhere; }
.sa-status-error { background: #ffebe9; border: 1px solid #ff8182; }
.sa-status-denied { background: #fff8c5; }
.sa-status-done { background: #dafbe1; }
/* File text and names are drawn in file (logical) order: strong right-to-left letters must not
   reorder the characters around them, so \`x = "א" + "ב"\` never reads as \`x = "ב" + "א"\`. */
.sa-payload, .sa-payload *, .sa-title, .sa-title *, .sa-diff, .sa-diff *, .sa-files, .sa-files *, .sa-file-view, .sa-file-view *, .sa-args, .sa-args * { unicode-bidi: bidi-override; direction: ltr; }
`;

/** Inserts the default styles (a static string: nothing from a payload goes into CSS). */
export function SandboxApprovalStyles(): ReactElement {
  return <style>{sandboxApprovalCss}</style>;
}
