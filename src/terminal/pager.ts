import { ApprovalAborted } from '../approval/errors.js';
import type { KeyReader } from './key-reader.js';
import type { Style } from './style.js';

export interface PagerOptions {
  keys: KeyReader;
  output: NodeJS.WritableStream;
  /** Number of lines and a lazy line source: only the visible window is ever rendered. */
  count: number;
  line(index: number): string;
  title: string;
  /** Kept on screen (e.g. the approval choices). */
  footer: string;
  rows: number;
  style: Style;
}

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
const fmt = (n: number) => n.toLocaleString('en');

/**
 * A small built-in pager (no `less` needed): j/k or arrows scroll a line, space/b
 * or PgDn/PgUp a page, g/G jump to the ends, / searches (n/N next/previous), q
 * returns. Ctrl-C aborts the run. Uses the alternate screen and always restores it.
 */
export async function runPager(o: PagerOptions): Promise<void> {
  const page = Math.max(1, o.rows - 3);
  let top = 0;
  let query = '';
  let message = '';
  const write = (s: string) => o.output.write(s);
  const maxTop = Math.max(0, o.count - page);
  const draw = () => {
    let screen = '\u001b[H\u001b[2J';
    screen += `${o.style.bold(o.title)}\n`;
    for (let i = top; i < Math.min(o.count, top + page); i++) {
      const text = o.line(i);
      screen += `${query && stripAnsi(text).includes(query) ? o.style.inverse(stripAnsi(text)) : text}\n`;
    }
    for (let i = Math.min(o.count, top + page) - top; i < page; i++) screen += '~\n';
    const last = Math.min(o.count, top + page);
    screen += o.style.dim(
      `lines ${fmt(o.count ? top + 1 : 0)}–${fmt(last)} of ${fmt(o.count)}  ${message || 'j/k ↑↓ · space/b · g/G · /search n/N · q back'}`,
    );
    screen += `\n${o.footer}`;
    write(screen);
  };
  const find = (from: number, step: 1 | -1): number | undefined => {
    for (let i = from; i >= 0 && i < o.count; i += step) if (stripAnsi(o.line(i)).includes(query)) return i;
    return undefined;
  };
  write('\u001b[?1049h\u001b[?25l');
  try {
    for (;;) {
      draw();
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
      else if (key === '/') {
        query = await readQuery(o);
        const hit = query ? find(top, 1) : undefined;
        if (hit === undefined && query) message = `not found: ${query}`;
        else if (hit !== undefined) top = Math.min(maxTop, hit);
      } else if ((key === 'n' || key === 'N') && query) {
        const hit = key === 'n' ? find(top + 1, 1) : find(top - 1, -1);
        if (hit === undefined) message = `no more matches for ${query}`;
        else top = Math.min(maxTop, hit);
      }
    }
  } finally {
    write('\u001b[?25h\u001b[?1049l');
  }
}

async function readQuery(o: PagerOptions): Promise<string> {
  let q = '';
  for (;;) {
    o.output.write(`\r\u001b[2K/${q}`);
    const key = await o.keys.next();
    if (key === 'ctrl-c') throw new ApprovalAborted('The user pressed Ctrl-C in the pager.');
    if (key === 'enter') return q;
    if (key === 'escape') return '';
    if (key === 'backspace') q = q.slice(0, -1);
    else if ([...key].length === 1) q += key;
  }
}
