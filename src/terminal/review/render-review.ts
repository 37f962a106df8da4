import type { ChangeSetFile } from '../../staging/change-set.js';
import { hunkDiff } from '../../staging/hunk-diff.js';
import { renderDiff } from '../diff-view.js';
import { fitWidth, sanitizeLine } from '../sanitize.js';
import { type Style, visibleLength } from '../style.js';
import { cutPathMiddle } from '../title-fit.js';
import { type FileChoice, type Mark, markOf, type ReviewState } from './review-state.js';

const MARKS: Record<Mark, string> = { all: '[✓]', none: '[✗]', some: '[~]', edited: '[e]' };

const markText = (mark: Mark, style: Style) => {
  const m = MARKS[mark];
  return mark === 'all' ? style.green(m) : mark === 'none' ? style.red(m) : style.yellow(m);
};

const stats = (f: ChangeSetFile, style: Style) =>
  `${style.green(`+${f.added}`)} ${style.red(`−${f.removed}`)}`;

export interface FileBody {
  lines: string[];
  /** Body line where each hunk's header is. */
  hunkStarts: number[];
}

/** The open file's diff: every hunk with its mark, the selected one pointed at. */
export function fileBody(choice: FileChoice, selected: number, style: Style, width: number): FileBody {
  const f = choice.file;
  const lines: string[] = [];
  const hunkStarts: number[] = [];
  if (choice.edited !== undefined)
    lines.push(style.yellow('Your own version will be written (press u to drop it).'), '');
  if (f.hunks.length === 0) {
    hunkStarts.push(0);
    const what = f.binary
      ? `binary file (${f.status}): accept or reject it whole`
      : f.status === 'moved'
        ? `moved from ${f.movedFrom} unchanged`
        : `${f.status} (no lines)`;
    lines.push(
      `${selected === 0 ? '▶' : ' '} ${markText(choice.accepted[0] ? 'all' : 'none', style)} ${sanitizeLine(what)}`,
    );
    return { lines, hunkStarts };
  }
  f.hunks.forEach((h, i) => {
    hunkStarts.push(lines.length);
    const note = choice.hunkNotes.get(h.id);
    const head = `${i === selected ? '▶' : ' '} ${markText(choice.accepted[i] ? 'all' : 'none', style)} change ${i + 1}/${f.hunks.length}  ${style.green(`+${h.added.length}`)} ${style.red(`−${h.removed.length}`)}${note ? `  note: ${sanitizeLine(note)}` : ''}`;
    lines.push(i === selected ? style.bold(head) : head);
    const diff = renderDiff(hunkDiff(f, i), style, width - 2).filter((l) => !l.includes('@@'));
    for (const l of diff) lines.push(`  ${l}`);
    lines.push('');
  });
  return { lines, hunkStarts };
}

// ASCII only: ambiguous-width arrows and dots count two columns, and the key line must fit 100 columns whole.
const LIST_KEYS =
  'up/down move  enter open  space toggle  a/r accept/reject all  e edit  n note  y apply  q cancel';
const FILE_KEYS = 'n/p next/prev change  space toggle  j/k scroll  e edit  m note  esc back  y apply';

/** One full screen (exactly `height` lines, each at most `width` columns). */
export function renderScreen(
  state: ReviewState,
  style: Style,
  width: number,
  height: number,
  message = '',
  body?: FileBody,
): string[] {
  const out: string[] = [];
  const total = state.set.stats;
  const clip = (s: string) =>
    visibleLength(s) > width ? fitWidth(s.replace(/\u001b\[[0-9;]*m/g, ''), width) : s;
  const room = Math.max(1, height - 4);
  if (state.open === undefined) {
    out.push(
      style.bold(`Review ${total.files} changed file${total.files === 1 ? '' : 's'}  `) +
        `${style.green(`+${total.added}`)} ${style.red(`−${total.removed}`)}`,
    );
    out.push('');
    const first = Math.max(0, Math.min(state.cursor - Math.floor(room / 2), state.files.length - room));
    const pathWidth = Math.max(12, width - 40);
    for (const [i, c] of state.files.slice(first, first + room).entries()) {
      const index = first + i;
      const f = c.file;
      const accepted = c.accepted.filter(Boolean).length;
      const extra =
        markOf(c) === 'some'
          ? `  ${accepted}/${c.accepted.length} changes`
          : markOf(c) === 'edited'
            ? '  your version'
            : '';
      const name = cutPathMiddle(
        sanitizeLine(f.movedFrom ? `${f.movedFrom} → ${f.path}` : f.path),
        pathWidth,
      );
      const row = `${index === state.cursor ? '›' : ' '} ${markText(markOf(c), style)} ${f.status.padEnd(8)} ${name.padEnd(pathWidth)} ${stats(f, style)}${extra}${c.note ? '  ✎' : ''}`;
      out.push(clip(index === state.cursor ? style.bold(row) : row));
    }
  } else {
    const c = state.files[state.open]!;
    const f = c.file;
    out.push(
      clip(
        style.bold(`${sanitizeLine(f.path)}  ${f.status}  `) +
          `${stats(f, style)}  change ${Math.min(state.hunk + 1, Math.max(1, f.hunks.length))}/${Math.max(1, f.hunks.length)}`,
      ),
    );
    out.push(clip(style.dim('─'.repeat(width))));
    const lines = body?.lines ?? [];
    for (const l of lines.slice(state.scroll, state.scroll + room)) out.push(clip(l));
  }
  while (out.length < height - 2) out.push('');
  out.push(clip(message ? style.yellow(sanitizeLine(message)) : ''));
  out.push(clip(style.dim(state.open === undefined ? LIST_KEYS : FILE_KEYS)));
  return out.slice(0, height);
}
