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
