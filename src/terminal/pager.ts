import { ApprovalAborted } from '../approval/errors.js';
import { charsFitting, columnsOf, displayWidth } from '../text/display-width.js';
import type { KeyReader } from './key-reader.js';
import { pasteAsLine } from './line-input.js';
import { fitWidth, sanitizeLine } from './sanitize.js';
import { type Style, stripAnsi, visibleLength } from './style.js';
import { fitTitle } from './title-fit.js';

export interface PagerOptions {
  keys: KeyReader;
  output: NodeJS.WritableStream;
  /** Number of lines and a lazy line source: only the visible window is ever rendered. */
  count: number;
  /** Line `index`, scrolled `shift` columns to the right when the user scrolls sideways. */
  line(index: number, shift?: number): string;
  /** The whole text of line `index`, uncut and unstyled, for search (default: the shown line). */
  search?(index: number): string;
  /** The file line a pager line shows (`new line 99`), for search results; default `line <index + 1>`. */
  where?(index: number): string;
  title: string;
  /** Shown under the title on every page (relocated hunks, overwrite, links, look-alike letters). */
  warnings?: string[];
  /** Paths in the title: a title too wide is cut in their middle, keeping file names. */
  paths?: string[];
  /** Kept on screen (e.g. the approval choices), folded into one line cut to the width. */
  footer: string;
  rows: number;
  /** Terminal columns (default 80): title and status line are cut to it. */
  width?: number;
  style: Style;
  /**
   * The lines laid out again for a new width, called when the terminal is
   * resized (the output's 'resize' event); without it lines are only re-cut.
   */
  relayout?(width: number): Pick<PagerOptions, 'count' | 'line' | 'search' | 'where'>;
  /** Default true. False (TERM=dumb, NO_COLOR): pages are drawn in place, the screen is not switched. */
  alternateScreen?: boolean;
  /** Default true. False (TERM=dumb): no escape sequences at all; each page is printed below the last. */
  escapes?: boolean;
}

/** The pager on screen, if any: what a signal handler must restore. */
let onScreen: { output: NodeJS.WritableStream; leave: string } | undefined;

/** Leaves the pager's screen (alternate screen off, cursor shown) if a pager is open; for signal handlers. */
export function restorePagerScreen(): void {
  onScreen?.output.write(onScreen.leave);
  onScreen = undefined;
}

/** What the pager lays out: the terminal size and the lines for it. */
interface Layout {
  width: number;
  rows: number;
  count: number;
  line(index: number, shift?: number): string;
  search?(index: number): string;
  where?(index: number): string;
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
  let l: Layout = { ...o, width: o.width ?? 80 };
  const escapes = o.escapes !== false;
  const enter = !escapes ? '' : o.alternateScreen === false ? '\u001b[?25l' : '\u001b[?1049h\u001b[?25l';
  const leave = !escapes ? '' : o.alternateScreen === false ? '\u001b[?25h' : '\u001b[?25h\u001b[?1049l';
  // Title + page + status line + one footer line fill the screen exactly (the last line without a newline).
  const warnings = o.warnings ?? [];
  const pageOf = (layout: Layout) =>
    Math.max(1, layout.rows - 2 - (o.footer ? 1 : 0) - Math.min(warnings.length, 3));
  let page = pageOf(l);
  let top = 0;
  let shift = 0;
  let query = '';
  let match: number | undefined;
  let message = '';
  const write = (s: string) => o.output.write(s);
  const maxTop = () => Math.max(0, l.count - page);
  const textOf = (i: number) => l.search?.(i) ?? stripAnsi(l.line(i));
  const draw = () => {
    // Everything stays off the last column, so no terminal wraps a line and scrolls the screen.
    const room = Math.max(10, l.width - 1);
    const lines = [o.style.bold(fitTitle({ title: o.title, paths: o.paths ?? [] }, room))];
    // At most three warning lines, the last saying how many more the frame shows.
    const shownWarnings =
      warnings.length <= 3 ? warnings : [...warnings.slice(0, 2), `⚠ … ${warnings.length - 2} more warnings`];
    for (const w of shownWarnings) lines.push(o.style.yellow(fitWidth(w, room)));
    for (let i = top; i < Math.min(l.count, top + page); i++) {
      const text = fitStyled(l.line(i, shift), room);
      lines.push(query && matched.has(i) ? o.style.inverse(stripAnsi(text)) : text);
    }
    while (lines.length < page + 1 + shownWarnings.length) lines.push('~');
    const last = Math.min(l.count, top + page);
    const where = `lines ${fmt(l.count ? top + 1 : 0)}–${fmt(last)} of ${fmt(l.count)}${shift ? ` · col ${fmt(shift + 1)}` : ''}`;
    lines.push(o.style.dim(fitWidth(`${where}  ${message || HELP}`, room)));
    if (o.footer) lines.push(fitStyled(o.footer.split('\n').join('  '), room));
    write(escapes ? `\u001b[H\u001b[2J${lines.join('\n')}` : `\n${lines.join('\n')}\n`);
  };
  const resizable = o.output as NodeJS.WritableStream & {
    columns?: number;
    rows?: number;
    getWindowSize?(): [number, number];
  };
  // Node refreshes the size (and emits 'resize') for stdout and stderr only; another terminal
  // stream (/dev/tty) is asked for its size on SIGWINCH.
  const bySignal =
    typeof resizable.getWindowSize === 'function' &&
    (resizable as unknown) !== process.stdout &&
    (resizable as unknown) !== process.stderr;
  const onResize = () => {
    const [columns, rows] = bySignal ? resizable.getWindowSize!() : [resizable.columns, resizable.rows];
    const width = Math.max(40, columns ?? l.width);
    l = { ...l, ...(o.relayout?.(width) ?? {}), width, rows: Math.max(5, rows ?? l.rows) };
    page = pageOf(l);
    top = Math.min(top, maxTop());
    // Lines may be laid out anew at another width: the matches are found again.
    if (query) findAll();
    draw();
  };
  // Every match of the query, found once per search: results say "n of N" and the file line.
  let matches: number[] = [];
  // The same lines as a set: a redraw highlights them without searching any line again.
  let matched = new Set<number>();
  const findAll = () => {
    matches = [];
    for (let i = 0; i < l.count; i++) if (textOf(i).includes(query)) matches.push(i);
    matched = new Set(matches);
  };
  const find = (from: number, step: 1 | -1): number | undefined => {
    if (step === 1) return matches.find((m) => m >= from);
    return matches.findLast((m) => m <= from);
  };
  const goTo = (hit: number | undefined, notFound: string) => {
    if (hit === undefined) message = notFound;
    else {
      match = hit;
      top = Math.min(maxTop(), hit);
      shift = sidewaysTo(textOf(hit), query, l.width);
      const where = l.where?.(hit) ?? `line ${fmt(hit + 1)}`;
      message = `match ${fmt(matches.indexOf(hit) + 1)} of ${fmt(matches.length)}: ${where}${shift ? `, col ${fmt(shift + 1)}` : ''}`;
    }
  };
  write(enter);
  onScreen = { output: o.output, leave };
  if (bySignal) process.on('SIGWINCH', onResize);
  else resizable.on?.('resize', onResize);
  try {
    for (let first = true; ; first = false) {
      draw();
      // A new screen: keys typed before it showed are not meant for it.
      if (first) await o.keys.arm();
      message = '';
      const key = await o.keys.next();
      if (key === 'ctrl-c') throw new ApprovalAborted('The user pressed Ctrl-C in the pager.');
      if (key === 'q' || key === 'escape') return;
      if (key === 'j' || key === 'down' || key === 'enter') top = Math.min(maxTop(), top + 1);
      else if (key === 'k' || key === 'up') top = Math.max(0, top - 1);
      else if (key === ' ' || key === 'pagedown' || key === 'f') top = Math.min(maxTop(), top + page);
      else if (key === 'b' || key === 'pageup') top = Math.max(0, top - page);
      else if (key === 'g' || key === 'home') top = 0;
      else if (key === 'G' || key === 'end') top = maxTop();
      else if (key === 'l' || key === 'right') shift += SIDE_STEP;
      else if (key === 'h' || key === 'left') shift = Math.max(0, shift - SIDE_STEP);
      else if (key === '/') {
        query = await readQuery(o, page + 2 + Math.min(warnings.length, 3), l.width);
        match = undefined;
        if (query) {
          findAll();
          goTo(find(top, 1) ?? find(0, 1), `not found: ${sanitizeLine(query)}`);
        }
      } else if ((key === 'n' || key === 'N') && query) {
        // From the last match (not the window top, which stops moving near the end).
        const from = match ?? top;
        goTo(
          key === 'n' ? find(from + 1, 1) : find(from - 1, -1),
          `no more matches for ${sanitizeLine(query)} (${fmt(matches.length)} in all)`,
        );
      }
    }
  } finally {
    if (bySignal) process.off('SIGWINCH', onResize);
    else resizable.off?.('resize', onResize);
    onScreen = undefined;
    write(leave);
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

/**
 * Reads the search text on the status line (row `row`), leaving the footer on
 * screen. The echo is sanitised like the deny note (a pasted escape sequence is
 * shown, never sent to the terminal) and shows the tail when it is too long.
 */
async function readQuery(o: PagerOptions, row: number, width: number): Promise<string> {
  let q = '';
  for (;;) {
    const shown = [...sanitizeLine(q)];
    const room = Math.max(10, width - 2);
    const echo =
      columnsOf(shown) <= room
        ? shown.join('')
        : `…${shown.slice(shown.length - charsFitting([...shown].reverse(), room - displayWidth('…'))).join('')}`;
    o.output.write(o.escapes === false ? `\r/${echo} \b` : `\u001b[${row};1H\u001b[2K/${echo}`);
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
