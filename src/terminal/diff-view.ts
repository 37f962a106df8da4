import { diffWordsWithSpace } from 'diff';
import { fitWidth, sanitizeLine } from './sanitize.js';
import type { Style } from './style.js';

interface Row {
  kind: 'hunk' | 'context' | 'add' | 'del' | 'note';
  text: string;
  oldNo?: number;
  newNo?: number;
}

/** Parses a unified diff into rows with old/new line numbers (headers dropped). */
export function parseDiffRows(unifiedDiff: string): Row[] {
  const rows: Row[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const line of unifiedDiff.split('\n')) {
    if (line.startsWith('--- ') || line.startsWith('+++ ')) continue;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      // GNU convention: an empty range names the line before it.
      if (/^@@ -\d+,0 /.test(line)) oldNo++;
      if (/ \+\d+,0 @@/.test(line)) newNo++;
      rows.push({ kind: 'hunk', text: line });
    } else if (line.startsWith('+')) rows.push({ kind: 'add', text: line.slice(1), newNo: newNo++ });
    else if (line.startsWith('-')) rows.push({ kind: 'del', text: line.slice(1), oldNo: oldNo++ });
    else if (line.startsWith('\\')) rows.push({ kind: 'note', text: line });
    else if (line.startsWith(' ')) {
      rows.push({ kind: 'context', text: line.slice(1), oldNo: oldNo++, newNo: newNo++ });
    }
  }
  return rows;
}

/** Counts added/removed lines of a full diff (stats never come from a cut view). */
export function diffStats(unifiedDiff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const r of parseDiffRows(unifiedDiff)) {
    if (r.kind === 'add') added++;
    else if (r.kind === 'del') removed++;
  }
  return { added, removed };
}

/** Word-level highlights for a removed/added pair: only the changed words are marked. */
function wordPair(oldText: string, newText: string, style: Style): [string, string] {
  const parts = diffWordsWithSpace(oldText, newText);
  let del = '';
  let add = '';
  for (const p of parts) {
    const text = sanitizeLine(p.value);
    if (p.added) add += style.addWord(text);
    else if (p.removed) del += style.delWord(text);
    else {
      del += style.red(text);
      add += style.green(text);
    }
  }
  return [del, add];
}

/**
 * Renders a unified diff as terminal lines: hunk headers (with a gap marker
 * between hunks), an old/new line-number gutter, red/green lines with word-level
 * highlights for paired changed lines, tabs expanded, long lines cut with a marker.
 */
export function renderDiff(unifiedDiff: string, style: Style, width: number): string[] {
  const rows = parseDiffRows(unifiedDiff);
  const numWidth = Math.max(
    3,
    String(Math.max(0, ...rows.map((r) => Math.max(r.oldNo ?? 0, r.newNo ?? 0)))).length,
  );
  const textWidth = Math.max(10, width - (numWidth * 2 + 4));
  const gutter = (r: Row) =>
    style.dim(
      `${r.oldNo === undefined ? ' '.repeat(numWidth) : String(r.oldNo).padStart(numWidth)} ${r.newNo === undefined ? ' '.repeat(numWidth) : String(r.newNo).padStart(numWidth)} `,
    );
  const out: string[] = [];
  let lastOld: number | undefined;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.kind === 'hunk') {
      const start = Number(/^@@ -(\d+)/.exec(r.text)?.[1] ?? 0);
      if (lastOld !== undefined && start > lastOld + 1)
        out.push(style.dim(`${' '.repeat(numWidth)} ⋯ ${start - lastOld - 1} unchanged lines ⋯`));
      out.push(style.cyan(fitWidth(r.text, width)));
      continue;
    }
    if (r.kind === 'note') {
      out.push(style.dim(fitWidth(r.text, width)));
      continue;
    }
    if (r.oldNo !== undefined) lastOld = r.oldNo;
    // A block of removed lines followed by as many added lines: pair them for word highlights.
    if (r.kind === 'del') {
      let d = i;
      while (d < rows.length && rows[d]!.kind === 'del') d++;
      let a = d;
      while (a < rows.length && rows[a]!.kind === 'add') a++;
      const dels = rows.slice(i, d);
      const adds = rows.slice(d, a);
      const paired = dels.length === adds.length && dels.every((x) => [...x.text].length <= textWidth);
      const pairedAdds = paired ? adds.every((x) => [...x.text].length <= textWidth) : false;
      if (paired && pairedAdds) {
        const pairs = dels.map((x, k) => wordPair(x.text, adds[k]!.text, style));
        dels.forEach((x, k) => {
          out.push(gutter(x) + style.red('-') + pairs[k]![0]);
        });
        adds.forEach((x, k) => {
          out.push(gutter(x) + style.green('+') + pairs[k]![1]);
        });
      } else {
        for (const x of dels)
          out.push(gutter(x) + style.red(`-${fitWidth(sanitizeLine(x.text), textWidth)}`));
        for (const x of adds)
          out.push(gutter(x) + style.green(`+${fitWidth(sanitizeLine(x.text), textWidth)}`));
      }
      i = a - 1;
      continue;
    }
    const text = fitWidth(sanitizeLine(r.text), textWidth);
    if (r.kind === 'add') out.push(gutter(r) + style.green(`+${text}`));
    else out.push(`${gutter(r)} ${text}`);
  }
  return out;
}
