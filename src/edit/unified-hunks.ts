import type { LinesWithEnds, Run } from './anchored-diff.js';

/** A line (terminator included) as a unified-diff body line after its prefix character. */
const body = (l: string) => (l.endsWith('\n') ? l.slice(0, -1) : `${l}\n\\ No newline at end of file`);

/**
 * Unified-diff hunks (no file header) from an edit script over `a` → `b` (lines
 * with their terminators), `context` lines around each change; changes closer
 * than twice the context share a hunk. An empty side's start names the line
 * before it (the GNU convention, as jsdiff writes it).
 */
export function formatHunks(
  a: LinesWithEnds,
  b: LinesWithEnds,
  runs: readonly Run[],
  context: number,
): string {
  const lineOf = (t: LinesWithEnds, i: number) => t.text.slice(t.offset(i), t.offset(i + 1));
  const out: string[] = [];
  let ai = 0;
  let bi = 0;
  let hunk: { a0: number; b0: number; lines: string[]; oldCount: number; newCount: number } | undefined;
  const close = () => {
    if (!hunk) return;
    const oldStart = hunk.oldCount === 0 ? hunk.a0 : hunk.a0 + 1;
    const newStart = hunk.newCount === 0 ? hunk.b0 : hunk.b0 + 1;
    out.push(`@@ -${oldStart},${hunk.oldCount} +${newStart},${hunk.newCount} @@\n${hunk.lines.join('\n')}\n`);
    hunk = undefined;
  };
  const keep = (from: number, to: number) => {
    for (let k = from; k < to; k++) hunk!.lines.push(` ${body(lineOf(a, k))}`);
    hunk!.oldCount += to - from;
    hunk!.newCount += to - from;
  };
  runs.forEach((run, r) => {
    if (run.kind === '=') {
      if (hunk) {
        const last = r === runs.length - 1;
        if (!last && run.count <= 2 * context) keep(ai, ai + run.count);
        else {
          keep(ai, ai + Math.min(context, run.count));
          close();
        }
      }
      ai += run.count;
      bi += run.count;
      return;
    }
    if (!hunk) {
      const lead = Math.min(context, ai, bi);
      hunk = { a0: ai - lead, b0: bi - lead, lines: [], oldCount: 0, newCount: 0 };
      keep(ai - lead, ai);
    }
    if (run.kind === '-') {
      for (let k = ai; k < ai + run.count; k++) hunk.lines.push(`-${body(lineOf(a, k))}`);
      hunk.oldCount += run.count;
      ai += run.count;
    } else {
      for (let k = bi; k < bi + run.count; k++) hunk.lines.push(`+${body(lineOf(b, k))}`);
      hunk.newCount += run.count;
      bi += run.count;
    }
  });
  close();
  return out.join('');
}
