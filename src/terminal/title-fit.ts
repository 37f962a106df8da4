import { charsFitting, displayWidth } from '../text/display-width.js';
import type { Rendered } from './rendered.js';
import { fitWidth } from './sanitize.js';
import { stripAnsi, visibleLength } from './style.js';

// `…` is East Asian ambiguous: counted as wide, as a CJK-locale terminal draws it.
const ELLIPSIS = displayWidth('…');

/**
 * A (sanitised) path cut to `columns` in the middle, keeping the file name:
 * `/src/very/…/deep/file.ts`. A file name too long by itself keeps its end
 * (the extension) after a leading `…`.
 */
export function cutPathMiddle(path: string, columns: number): string {
  if (displayWidth(path) <= columns) return path;
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash);
  const nameWidth = displayWidth(name);
  if (nameWidth + ELLIPSIS + 1 > columns) {
    const chars = [...name].reverse();
    return `…${chars
      .slice(0, charsFitting(chars, Math.max(1, columns - ELLIPSIS)))
      .reverse()
      .join('')}`;
  }
  const head = [...path.slice(0, slash)];
  return `${head.slice(0, charsFitting(head, columns - ELLIPSIS - nameWidth)).join('')}…${name}`;
}

/**
 * The title fitted to `columns`: the paths in it are cut in the middle first,
 * down to 20 columns or `…/name` (the file name stays); if that is not enough the details
 * after them go, and a title that cannot fit even so has its last name cut to
 * the room left, keeping the name's end (the extension).
 */
export function fitTitle(r: Pick<Rendered, 'title' | 'paths'>, columns: number): string {
  let title = r.title;
  const paths = [...(r.paths ?? [])].sort((a, b) => displayWidth(b) - displayWidth(a));
  for (const [i, path] of paths.entries()) {
    const excess = visibleLength(title) - columns;
    if (excess <= 0) break;
    const at = title.indexOf(path);
    if (at < 0) continue;
    // A short path is kept whole (the details after it go first); a longer one is cut in
    // the middle down to 20 columns, never below its file name.
    const floor = Math.max(
      displayWidth(path.slice(path.lastIndexOf('/'))) + ELLIPSIS,
      Math.min(displayWidth(path), 20),
    );
    const cut = cutPathMiddle(
      path,
      Math.max(floor, displayWidth(path) - Math.ceil(excess / (paths.length - i))),
    );
    title = title.slice(0, at) + cut + title.slice(at + path.length);
    paths[i] = cut;
  }
  if (visibleLength(title) <= columns) return title;
  const plain = stripAnsi(title);
  const marker = displayWidth(`…+${[...plain].length}`);
  const last = paths
    .map((p) => ({ p, at: plain.indexOf(p) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => b.at - a.at)[0];
  if (last && displayWidth(plain.slice(0, last.at + last.p.length)) + marker > columns) {
    const room = columns - displayWidth(plain.slice(0, last.at)) - marker;
    if (room >= 4) {
      const cut =
        plain.slice(0, last.at) + cutPathMiddle(last.p, room) + plain.slice(last.at + last.p.length);
      return fitWidth(cut, columns);
    }
  }
  return fitWidth(plain, columns);
}
