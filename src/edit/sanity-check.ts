const OPENERS = ['(', '[', '{'];
const CLOSERS = [')', ']', '}'];

/**
 * Net bracket balance of text[from, to): +1 per opener ( [ {, −1 per closer ) ] }.
 * Brackets are sparse in most text, so each kind is found by a native search that
 * skips everything else (several times faster than looking at every character);
 * text that turns out dense with brackets is counted character by character instead.
 */
export function bracketBalance(text: string, from = 0, to = text.length): number {
  // A slice of a flat string shares its characters: the searches cannot run past `to`.
  const range = from === 0 && to === text.length ? text : text.slice(from, to);
  const budget = range.length >> 3;
  let found = 0;
  let n = 0;
  for (const [kinds, step] of [
    [OPENERS, 1],
    [CLOSERS, -1],
  ] as const) {
    for (const kind of kinds) {
      for (let i = range.indexOf(kind); i !== -1; i = range.indexOf(kind, i + 1)) {
        if (++found > budget) return balanceByScan(range);
        n += step;
      }
    }
  }
  return n;
}

function balanceByScan(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) n++;
    else if (c === 41 || c === 93 || c === 125) n--;
  }
  return n;
}

/** Lines read one at a time, so a region of a million lines is never split into strings. */
export interface LineList {
  readonly count: number;
  line(i: number): string;
}

export interface EditedRegion {
  /** The lines the edit replaced. */
  removed: LineList;
  /** Bracket balance of the replaced lines and of the new ones (line endings hold no brackets). */
  removedBalance: number;
  addedBalance: number;
  /** How many lines the edit put in. */
  added: number;
  /** 0-based index of the first added line in the new file. */
  at: number;
}

/**
 * Heuristics for edits that are probably not what the model meant: the edit
 * changes the file's bracket balance, or it creates a line identical to its new
 * neighbour (the classic "replaced a line and also kept it" slip). `lineAt(i)`
 * gives line i of the new file, for i below `end`, at least one line either side
 * of every region.
 */
export function sanityWarnings(
  lineAt: (i: number) => string,
  end: number,
  regions: readonly EditedRegion[],
): string[] {
  const warnings: string[] = [];
  for (const r of regions) {
    const delta = r.addedBalance - r.removedBalance;
    if (delta !== 0) {
      warnings.push(
        `Edit at line ${r.at + 1} changes the bracket balance by ${delta > 0 ? '+' : ''}${delta} (the new text ${delta > 0 ? 'opens' : 'closes'} more brackets than the text it replaces).`,
      );
    }
    if (r.added === 0) continue;
    const first = r.at;
    const last = r.at + r.added - 1;
    const dup = (a: number, b: number) =>
      a >= 0 && b < end && lineAt(a).trim().length > 3 && lineAt(a).trim() === lineAt(b).trim();
    if ((dup(first - 1, first) || dup(last, last + 1)) && !hadAdjacentTwins(r.removed)) {
      const at = dup(first - 1, first) ? first : last + 1;
      warnings.push(
        `Edit at line ${r.at + 1} leaves two identical adjacent lines (line ${at} and ${at + 1}): "${lineAt(at).trim().slice(0, 60)}".`,
      );
    }
  }
  return warnings;
}

/** Whether two adjacent lines of `lines` were already the same (trimmed). */
function hadAdjacentTwins(lines: LineList): boolean {
  let previous = lines.count > 0 ? lines.line(0).trim() : '';
  for (let i = 1; i < lines.count; i++) {
    const current = lines.line(i).trim();
    if (current === previous) return true;
    previous = current;
  }
  return false;
}
