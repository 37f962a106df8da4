/** One operation of an edit_lines call: lines [start, end) replaced by `count` lines. */
export interface LineSplice {
  start: number;
  end: number;
  count: number;
}

/**
 * Line `at` of a version, carried through edits made since, each a sorted list of
 * splices in the numbering of the version it edited: its number after them, or
 * undefined when one of them replaced it. Exact, unlike a diff: the toolset made
 * these edits itself, so it knows where every line it did not touch went.
 */
export function mapThroughEdits(at: number, edits: readonly (readonly LineSplice[])[]): number | undefined {
  let line = at;
  for (const splices of edits) {
    let shift = 0;
    for (const s of splices) {
      // Lines inserted at a line's place (start === end) push it down.
      if (line < s.start) break;
      if (line < s.end) return undefined;
      shift += s.count - (s.end - s.start);
    }
    line += shift;
  }
  return line;
}

/** A stretch of lines an edit left alone: `length` lines from line `from` are now from line `to`. */
interface KeptRun {
  from: number;
  to: number;
  length: number;
}

/** The runs of lines one sorted splice list keeps (the last one runs on past the file's end). */
function keptRuns(splices: readonly LineSplice[]): KeptRun[] {
  const runs: KeptRun[] = [];
  let line = 0;
  let shift = 0;
  for (const s of splices) {
    if (s.start > line) runs.push({ from: line, to: line + shift, length: s.start - line });
    shift += s.count - (s.end - s.start);
    line = Math.max(line, s.end);
  }
  runs.push({ from: line, to: line + shift, length: Number.POSITIVE_INFINITY });
  return runs;
}

/** `runs` (from some version to the one `splices` edit) carried through `splices` too. */
function runsThrough(runs: readonly KeptRun[], splices: readonly LineSplice[]): KeptRun[] {
  const out: KeptRun[] = [];
  let j = 0;
  let shift = 0;
  for (const run of runs) {
    let at = run.to;
    let from = run.from;
    const end = run.to + run.length;
    while (at < end) {
      // Splices wholly at or before `at` move it (an insertion at its place pushes it down).
      while (j < splices.length && splices[j]!.end <= at) {
        shift += splices[j]!.count - (splices[j]!.end - splices[j]!.start);
        j++;
      }
      const next = splices[j];
      if (next && next.start <= at) {
        // Replaced: skip to the splice's end.
        const skip = Math.min(end, next.end) - at;
        from += skip;
        at += skip;
        continue;
      }
      const stop = next ? Math.min(end, next.start) : end;
      out.push({ from, to: at + shift, length: stop - at });
      from += stop - at;
      at = stop;
    }
  }
  return out;
}

/**
 * Several edits' splice lists as one, in the numbering of the version the first
 * edited: mapThroughEdits gives every line the same answer through it as through
 * all of them, at the cost of one list, however many edits there were.
 */
export function composeEdits(edits: readonly (readonly LineSplice[])[]): LineSplice[] {
  if (edits.length === 0) return [];
  let runs = keptRuns(edits[0]!);
  for (const splices of edits.slice(1)) runs = runsThrough(runs, splices);
  const out: LineSplice[] = [];
  let line = 0;
  let now = 0;
  for (const run of runs) {
    if (run.length === 0) continue;
    if (run.from > line || run.to > now) out.push({ start: line, end: run.from, count: run.to - now });
    line = run.from + run.length;
    now = run.to + run.length;
  }
  return out;
}

/** Edits carried at most before they are composed into one list (see composeEdits). */
const EDITS_BEFORE_COMPOSING = 32;

/** `edits` with one more appended: composed into one list once they are many, so none is ever dropped. */
export function withEdit(
  edits: readonly (readonly LineSplice[])[],
  splices: readonly LineSplice[],
): (readonly LineSplice[])[] {
  const all = [...edits, splices];
  return all.length > EDITS_BEFORE_COMPOSING ? [composeEdits(all)] : all;
}

/** Lines in text[from, to): its newlines, plus one for a last line without one. */
function linesIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return to > from && text.charCodeAt(to - 1) !== 10 ? n + 1 : n;
}

/**
 * An edit of a text given as a splice (text[head, length - tail) replaced by `middle`)
 * as the lines it replaced: the lines the splice touches, widened to whole lines, and
 * how many lines stand there now. Every other line is the same line, moved or not.
 */
export function lineSpliceOf(
  text: string,
  splice: { head: number; middle: string; tail: number },
): LineSplice {
  const { head, middle } = splice;
  const end = text.length - splice.tail;
  const from = head === 0 ? 0 : text.lastIndexOf('\n', head - 1) + 1;
  const lead = text.slice(from, head) + middle;
  // The splice ends where a line starts and what it writes ends a line: that line is untouched.
  const aligned = (end === 0 || text.charCodeAt(end - 1) === 10) && (lead === '' || lead.endsWith('\n'));
  const newline = text.indexOf('\n', end);
  const to = aligned ? end : newline === -1 ? text.length : newline + 1;
  const start = from === 0 ? 0 : linesIn(text, 0, from);
  return {
    start,
    end: start + linesIn(text, from, to),
    count: linesIn(lead + text.slice(end, to), 0, lead.length + (to - end)),
  };
}
