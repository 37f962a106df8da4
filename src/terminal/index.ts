export {
  allLines,
  arraySource,
  diffLineSource,
  diffStats,
  type LineSource,
  parseDiffRows,
  renderDiff,
} from './diff-view.js';
export { editableField, editInEditor } from './edit-in-editor.js';
export { type KeyInput, KeyReader, parseKeys } from './key-reader.js';
export { type PagerOptions, runPager } from './pager.js';
export { renderPayload } from './render-payload.js';
export type { Rendered } from './rendered.js';
export { fitWidth, sanitizeLine, sanitizeLines } from './sanitize.js';
export { colorWanted, createStyle, type Style } from './style.js';
export { type TerminalApproverOptions, terminalApprover } from './terminal-approver.js';
