import { ApprovalAborted } from '../approval/errors.js';
import { displayWidth } from '../text/display-width.js';
import type { KeyReader } from './key-reader.js';
import { pasteAsLine } from './line-input.js';
import { fitWidth } from './sanitize.js';
import { type Style, stripAnsi, visibleLength } from './style.js';

export interface PagerOptions {
  keys: KeyReader;
  output: NodeJS.WritableStream;
  /** Number of lines and a lazy line source: only the visible window is ever rendered. */
  count: number;
  /** Line `index`, scrolled `shift` columns to the right when the user scrolls sideways. */
  line(index: number, shift?: number): string;
  /** The whole text of line `index`, uncut and unstyled, for search (default: the shown line). */
  search?(index: number): string;
  title: string;
  /** Kept on screen (e.g. the approval choices); may span several lines. */
  footer: string;
  rows: number;
  /** Terminal columns (default 80): title and status line are cut to it. */
  width?: number;
  style: Style;
}

const fmt = (n: number) => n.toLocaleString('en');
const HELP = 'j/k ↑↓ · space/b · g/G · ←→ · /search n/N · q back';
/** Columns moved by one press of ← / → (or h / l). */
const SIDE_STEP = 40;

/** Fits a possibly coloured line to `width`, dropping its colour only when it has to be cut. */
function fitStyled(s: string, width: number): string {
  return visibleLength(s) <= width ? s : fitWidth(stripAnsi(s), width);
}

/**
 * A small built-in pager (no `less` needed): j/k or arrows scroll a line, space/b
 * or PgDn/PgUp a page, g/G jump to the ends, ←/→ (h/l) scroll long lines sideways,
 * / searches (n/N next/previous match), q returns. Ctrl-C aborts the run. The
 * title, the status line and the footer always fit the screen. Uses the
 * alternate screen and always restores it.
 */
export async function runPager(o: PagerOptions): Promise<void> {
  const width = o.width ?? 80;
  const footerLines = o.footer ? o.footer.split('\n').length : 0;
  // Title + page + status line + footer fill the screen exactly (the last line without a newline).
  const page = Math.max(1, o.rows - 2 - footerLines);
  let top = 0;
  let shift = 0;
  let query = '';
  let match: number | undefined;
  let message = '';
  const write = (s: string) => o.output.write(s);
  const maxTop = Math.max(0, o.count - page);
  const textOf = (i: number) => o.search?.(i) ?? stripAnsi(o.line(i));
  const draw = () => {
    const lines = [o.style.bold(fitStyled(o.title, width))];
    for (let i = top; i < Math.min(o.count, top + page); i++) {
      const text = o.line(i, shift);
      lines.push(query && textOf(i).includes(query) ? o.style.inverse(stripAnsi(text)) : text);
    }
    while (lines.length < page + 1) lines.push('~');
    const last = Math.min(o.count, top + page);
    const where = `lines ${fmt(o.count ? top + 1 : 0)}–${fmt(last)} of ${fmt(o.count)}${shift ? ` · col ${fmt(shift + 1)}` : ''}`;
    lines.push(o.style.dim(fitWidth(`${where}  ${message || HELP}`, width)));
    if (o.footer) lines.push(o.footer);
    write(`\u001b[H\u001b[2J${lines.join('\n')}`);
  };
  const find = (from: number, step: 1 | -1): number | undefined => {
    for (let i = from; i >= 0 && i < o.count; i += step) if (textOf(i).includes(query)) return i;
    return undefined;
  };
  const goTo = (hit: number | undefined, notFound: string) => {
    if (hit === undefined) message = notFound;
    else {
      match = hit;
      top = Math.min(maxTop, hit);
      shift = sidewaysTo(textOf(hit), query, width);
      message = `match at line ${fmt(hit + 1)}${shift ? `, col ${fmt(shift + 1)}` : ''}`;
    }
  };
  write('\u001b[?1049h\u001b[?25l');
  try {
    for (let first = true; ; first = false) {
      draw();
      // A new screen: keys typed before it showed are not meant for it.
      if (first) o.keys.arm();
      message = '';
      const key = await o.keys.next();
      if (key === 'ctrl-c') throw new ApprovalAborted('The user pressed Ctrl-C in the pager.');
      if (key === 'q' || key === 'escape') return;
      if (key === 'j' || key === 'down' || key === 'enter') top = Math.min(maxTop, top + 1);
      else if (key === 'k' || key === 'up') top = Math.max(0, top - 1);
      else if (key === ' ' || key === 'pagedown' || key === 'f') top = Math.min(maxTop, top + page);
      else if (key === 'b' || key === 'pageup') top = Math.max(0, top - page);
      else if (key === 'g' || key === 'home') top = 0;
      else if (key === 'G' || key === 'end') top = maxTop;
      else if (key === 'l' || key === 'right') shift += SIDE_STEP;
      else if (key === 'h' || key === 'left') shift = Math.max(0, shift - SIDE_STEP);
      else if (key === '/') {
        query = await readQuery(o, page + 2);
        match = undefined;
        if (query) goTo(find(top, 1), `not found: ${query}`);
      } else if ((key === 'n' || key === 'N') && query) {
        // From the last match (not the window top, which stops moving near the end).
        const from = match ?? top;
        goTo(key === 'n' ? find(from + 1, 1) : find(from - 1, -1), `no more matches for ${query}`);
      }
    }
  } finally {
    write('\u001b[?25h\u001b[?1049l');
  }
}

/**
 * The sideways scroll that brings a match on screen: none when the match ends
 * within the first half of the screen (the gutter takes part of it), else the
 * match a few columns from the left edge.
 */
export function sidewaysTo(text: string, query: string, width: number): number {
  const at = text.indexOf(query);
  if (at < 0) return 0;
  const column = displayWidth(text.slice(0, at));
  return column + displayWidth(query) <= width / 2 ? 0 : Math.max(0, column - 8);
}

/** Reads the search text on the status line (row `row`), leaving the footer on screen. */
async function readQuery(o: PagerOptions, row: number): Promise<string> {
  let q = '';
  for (;;) {
    o.output.write(`\u001b[${row};1H\u001b[2K/${q}`);
    const key = await o.keys.nextInput();
    if (typeof key !== 'string') {
      q += pasteAsLine(key.paste);
      continue;
    }
    if (key === 'ctrl-c') throw new ApprovalAborted('The user pressed Ctrl-C in the pager.');
    if (key === 'enter') return q;
    if (key === 'escape') return '';
    if (key === 'backspace') q = [...q].slice(0, -1).join('');
    else if ([...key].length === 1) q += key;
  }
}
