/** One row of a unified diff as a UI shows it. */
export interface DiffRow {
  kind: 'hunk' | 'context' | 'add' | 'del' | 'note';
  text: string;
  oldNo?: number;
  newNo?: number;
  /** The added line a removed one is compared with for word highlights (see wordsOf), and back. */
  partner?: DiffRow;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const FILE_HEADERS = ['--- ', '+++ ', 'diff ', 'Index: ', '==='];

/**
 * Parses a unified diff into rows with old/new line numbers, as the terminal
 * UI does: a row's kind comes from its position (inside a hunk, exactly the
 * line counts its header declares), never from its text, so an added line
 * `++ x` is a change, and file headers are dropped only between hunks.
 * Removed/added runs of equal length are paired for word-level highlights,
 * computed only for the rows drawn (wordsOf).
 */
export function diffRows(unifiedDiff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldNo = 0;
  let newNo = 0;
  let oldLeft = 0;
  let newLeft = 0;
  const lines = unifiedDiff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    if (oldLeft > 0 || newLeft > 0) {
      const c = line[0];
      if (c === '+') {
        rows.push({ kind: 'add', text: line.slice(1), newNo: newNo++ });
        newLeft--;
      } else if (c === '-') {
        rows.push({ kind: 'del', text: line.slice(1), oldNo: oldNo++ });
        oldLeft--;
      } else if (c === '\\') rows.push({ kind: 'note', text: line });
      else {
        rows.push({
          kind: 'context',
          text: c === ' ' ? line.slice(1) : line,
          oldNo: oldNo++,
          newNo: newNo++,
        });
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk) {
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      // GNU convention: an empty range names the line before it.
      oldNo = Number(hunk[1]) + (oldLeft === 0 ? 1 : 0);
      newNo = Number(hunk[3]) + (newLeft === 0 ? 1 : 0);
      rows.push({ kind: 'hunk', text: line, oldNo, newNo });
    } else if (line !== '' && !FILE_HEADERS.some((h) => line.startsWith(h)))
      rows.push({ kind: 'note', text: line });
  }
  pairPartners(rows);
  return rows;
}

/**
 * Pairs the i-th removed line of a block with the i-th added line when both runs
 * have the same length. Note rows (`\ No newline at end of file`) inside a block
 * are skipped: they sit between the - and + rows of a last line without a final newline.
 */
function pairPartners(rows: DiffRow[]): void {
  for (let i = 0; i < rows.length; ) {
    if (rows[i]!.kind !== 'del') {
      i++;
      continue;
    }
    const dels: DiffRow[] = [];
    const adds: DiffRow[] = [];
    let j = i;
    for (; j < rows.length; j++) {
      const k = rows[j]!.kind;
      if (k === 'del' && adds.length === 0) dels.push(rows[j]!);
      else if (k === 'add') adds.push(rows[j]!);
      else if (k !== 'note') break;
    }
    if (adds.length === dels.length)
      for (let k = 0; k < dels.length; k++) {
        dels[k]!.partner = adds[k]!;
        adds[k]!.partner = dels[k]!;
      }
    i = Math.max(j, i + 1);
  }
}

/** A stretch of the view: rows to draw, or unchanged lines hidden behind an expander. */
export type DiffSegment =
  | { kind: 'rows'; rows: DiffRow[] }
  | { kind: 'gap'; key: string; fromNew: number; count: number; lines?: string[] };

/**
 * Splits rows into what is drawn and what is collapsed: long runs of context
 * inside a hunk keep `keep` lines on each side; the unchanged lines between
 * hunks (and around them) become gaps, expandable when the full new text is known.
 */
export function diffSegments(
  rows: DiffRow[],
  options: { keep?: number; newText?: string } = {},
): DiffSegment[] {
  const keep = options.keep ?? 3;
  const newLines = options.newText === undefined ? undefined : splitLines(options.newText);
  const out: DiffSegment[] = [];
  let drawn: DiffRow[] = [];
  let run: DiffRow[] = [];
  let lastNew = 0;
  const gap = (fromNew: number, count: number) => {
    if (count <= 0) return;
    flush();
    const lines = newLines?.slice(fromNew - 1, fromNew - 1 + count);
    out.push({ kind: 'gap', key: `g${fromNew}`, fromNew, count, ...(lines ? { lines } : {}) });
  };
  const flush = () => {
    endRun();
    if (drawn.length) out.push({ kind: 'rows', rows: drawn });
    drawn = [];
  };
  const endRun = () => {
    if (run.length > keep * 2 + 1) {
      for (const r of run.slice(0, keep)) drawn.push(r);
      const hidden = run.slice(keep, run.length - keep);
      if (drawn.length) out.push({ kind: 'rows', rows: drawn });
      drawn = [];
      out.push({
        kind: 'gap',
        key: `c${hidden[0]!.newNo}`,
        fromNew: hidden[0]!.newNo!,
        count: hidden.length,
        lines: hidden.map((r) => r.text),
      });
      for (const r of run.slice(run.length - keep)) drawn.push(r);
    } else for (const r of run) drawn.push(r);
    run = [];
  };
  for (const row of rows) {
    if (row.kind === 'hunk') {
      endRun();
      gap(lastNew + 1, (row.newNo ?? 1) - lastNew - 1);
    }
    if (row.kind === 'context') run.push(row);
    else {
      endRun();
      drawn.push(row);
    }
    if (row.newNo !== undefined && row.kind !== 'hunk') lastNew = row.newNo;
  }
  endRun();
  if (newLines) gap(lastNew + 1, newLines.length - lastNew);
  flush();
  return out;
}

/** Lines of a text; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
