/** Net bracket balance of some lines: +1 per opener ( [ {, −1 per closer ) ] }. */
export function bracketBalance(lines: readonly string[]): number {
  let n = 0;
  for (const line of lines) {
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 40 || c === 91 || c === 123) n++;
      else if (c === 41 || c === 93 || c === 125) n--;
    }
  }
  return n;
}

export interface EditedRegion {
  removed: readonly string[];
  added: readonly string[];
  /** 0-based index of the first added line in the new file. */
  at: number;
}

/**
 * Heuristics for edits that are probably not what the model meant: the edit
 * changes the file's bracket balance, or it creates a line identical to its new
 * neighbour (the classic "replaced a line and also kept it" slip). `newLines` may
 * be a window of the new file starting at line `offset`, as long as it holds a
 * line either side of every region.
 */
export function sanityWarnings(
  newLines: readonly string[],
  regions: readonly EditedRegion[],
  offset = 0,
): string[] {
  const warnings: string[] = [];
  const lineAt = (i: number) => newLines[i - offset]!;
  const end = offset + newLines.length;
  for (const r of regions) {
    const delta = bracketBalance(r.added) - bracketBalance(r.removed);
    if (delta !== 0) {
      warnings.push(
        `Edit at line ${r.at + 1} changes the bracket balance by ${delta > 0 ? '+' : ''}${delta} (the new text ${delta > 0 ? 'opens' : 'closes'} more brackets than the text it replaces).`,
      );
    }
    if (r.added.length === 0) continue;
    const first = r.at;
    const last = r.at + r.added.length - 1;
    const dup = (a: number, b: number) =>
      a >= 0 && b < end && lineAt(a).trim().length > 3 && lineAt(a).trim() === lineAt(b).trim();
    const wasDupBefore = r.removed.some((l, i) => i > 0 && l.trim() === r.removed[i - 1]!.trim());
    if (!wasDupBefore && (dup(first - 1, first) || dup(last, last + 1))) {
      const at = dup(first - 1, first) ? first : last + 1;
      warnings.push(
        `Edit at line ${r.at + 1} leaves two identical adjacent lines (line ${at} and ${at + 1}): "${lineAt(at).trim().slice(0, 60)}".`,
      );
    }
  }
  return warnings;
}
