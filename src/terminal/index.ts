export {
  allLines,
  arraySource,
  diffLineSource,
  diffStats,
  type LineSource,
  parseDiffRows,
  renderDiff,
} from './diff-view.js';
export { dropAddedFinalNewline, editableField, editInEditor } from './edit-in-editor.js';
export { InputDecoder, type InputEvent, type Paste } from './input-decoder.js';
export {
  type Clock,
  DEFAULT_ARM_DELAY_MS,
  type KeyInput,
  KeyReader,
  type KeyReaderOptions,
  parseKeys,
} from './key-reader.js';
export { type PagerOptions, runPager } from './pager.js';
export { choiceLine, previewSize, questionFor } from './prompt-parts.js';
export { renderPayload } from './render-payload.js';
export { numbered, numberedSource, overwriteWarning, renderWrite } from './render-write.js';
export type { Rendered } from './rendered.js';
export * from './review/index.js';
export { fitWidth, sanitizeLine, sanitizeLines, shiftLeft } from './sanitize.js';
export {
  colorWanted,
  createStyle,
  type Style,
  screenWanted,
  stripAnsi,
  visibleLength,
} from './style.js';
export { runSystemPager } from './system-pager.js';
export { NON_TTY_NOTE, type TerminalApproverOptions, terminalApprover } from './terminal-approver.js';
export { cutPathMiddle, fitTitle } from './title-fit.js';
