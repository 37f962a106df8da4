import { applyPatch } from 'diff';
import { boundedUnifiedDiff } from './bounded-diff.js';
import { closestRegion } from './closest-region.js';
import { type BlockLocation, locateBlock, reindent } from './match-cascade.js';
import type { MatchLevel } from './normalize-line.js';
import { type HunkLine, type LooseHunk, parseLooseDiff } from './parse-unified-diff.js';
import { detectTextFormat, joinLines, splitLines, withoutBom } from './text-format.js';

export interface FixedHunk {
  index: number;
  requestedStart?: number;
  /** 1-based line where the hunk's old side actually starts. */
  actualStart: number;
  level: MatchLevel;
  /** True when only the context next to the changes could be matched. */
  trimmedContext: boolean;
}

export type FixDiffResult =
  | { ok: true; newText: string; correctedDiff: string; relocated: boolean; hunks: FixedHunk[] }
  | {
      ok: false;
      code: 'invalid_diff';
      internal?: boolean;
      message: string;
      details?: { hunk?: number; reason: string; candidates?: Array<{ line: number; text: string }> };
    };

/** Keeps only the context lines adjacent to the changes (for a second attempt at locating a hunk). */
function trimContext(lines: HunkLine[]): HunkLine[] {
  const first = lines.findIndex((l) => l.kind !== ' ');
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.kind === ' ') last--;
  return lines.slice(Math.max(0, first - 1), Math.min(lines.length, last + 2));
}

interface Placement {
  hunk: LooseHunk;
  lines: HunkLine[];
  start: number;
  end: number;
  level: MatchLevel;
  trimmed: boolean;
}

function fail(
  hunk: number | undefined,
  reason: string,
  message: string,
  candidates?: Array<{ line: number; text: string }>,
): FixDiffResult {
  return {
    ok: false,
    code: 'invalid_diff',
    message,
    details: { ...(hunk === undefined ? {} : { hunk }), reason, ...(candidates ? { candidates } : {}) },
  };
}

/**
 * patch_file's "fix the diff": each hunk is located by its old side (context
 * and `-` lines) with the edit_file matching cascade — never by its @@ numbers —
 * ambiguity is refused, then an exact patch is rebuilt from the file's own bytes
 * and applied strictly with `diff`'s applyPatch.
 */
export function fixUnifiedDiff(text: string, diff: string): FixDiffResult {
  const hunks = parseLooseDiff(diff);
  if (hunks.length === 0) {
    return fail(
      undefined,
      'no_hunks',
      'The diff has no hunks with + or - lines. Send a unified diff with @@ hunks.',
    );
  }
  const { body, restore } = withoutBom(text);
  const format = detectTextFormat(body);
  const split = splitLines(body);
  const placements: Placement[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    const placed = placeHunk(split.lines, hunk, cursor);
    if ('error' in placed) return placed.error;
    placements.push(placed);
    cursor = placed.end;
  }
  // Apply bottom-up on the file's own lines, keeping each untouched line's terminator.
  for (const p of [...placements].reverse()) {
    const window = split.lines.slice(p.start, p.end);
    const oldSide = p.lines.filter((l) => l.kind !== '+').map((l) => l.text);
    const added = p.lines.filter((l) => l.kind === '+').map((l) => l.text);
    const fixedAdded =
      p.level === 'exact' || p.level === 'trailing_whitespace' ? added : reindent(added, oldSide, window);
    const newLines: string[] = [];
    let w = 0;
    let a = 0;
    for (const line of p.lines) {
      if (line.kind === ' ') newLines.push(window[w++]!);
      else if (line.kind === '-') w++;
      else newLines.push(fixedAdded[a++]!);
    }
    // New lines take the file's line ending; the last one keeps the terminator the window ended with.
    const tail = p.end > p.start ? split.terminators[p.end - 1]! : format.eol;
    const terms = newLines.map((_, i) => (i === newLines.length - 1 ? tail : format.eol));
    if (
      p.end === p.start &&
      p.start === split.lines.length &&
      p.start > 0 &&
      split.terminators[p.start - 1] === ''
    ) {
      // Appending after a last line that had no newline: it gets one, the new last line does not.
      split.terminators[p.start - 1] = format.eol;
      if (terms.length > 0) terms[terms.length - 1] = '';
    }
    split.lines.splice(p.start, p.end - p.start, ...newLines);
    split.terminators.splice(p.start, p.end - p.start, ...terms);
  }
  const expected = joinLines(split);
  const corrected = boundedUnifiedDiff(body, expected, {
    oldPath: '/file',
    newPath: '/file',
    timeBudgetMs: 2_000,
  });
  const applied =
    corrected.unifiedDiff === ''
      ? body
      : applyPatch(body, corrected.unifiedDiff, { autoConvertLineEndings: false });
  if (applied === false || applied !== expected) {
    return {
      ok: false,
      code: 'invalid_diff',
      internal: true,
      message:
        'Internal error: the corrected patch failed to apply strictly. Nothing was changed; please review the diff for subtle errors or use edit_file.',
      details: { reason: 'strict_apply_failed' },
    };
  }
  return {
    ok: true,
    newText: restore(applied),
    correctedDiff: corrected.unifiedDiff,
    relocated: placements.some(
      (p) => p.start !== p.end && p.hunk.oldStart !== undefined && p.hunk.oldStart !== p.start + 1,
    ),
    hunks: placements.map((p) => ({
      index: p.hunk.index,
      ...(p.hunk.oldStart === undefined ? {} : { requestedStart: p.hunk.oldStart }),
      actualStart: p.start + 1,
      level: p.level,
      trimmedContext: p.trimmed,
    })),
  };
}

function placeHunk(
  fileLines: string[],
  hunk: LooseHunk,
  cursor: number,
): Placement | { error: FixDiffResult } {
  const attempts: Array<{ lines: HunkLine[]; trimmed: boolean }> = [{ lines: hunk.lines, trimmed: false }];
  const trimmed = trimContext(hunk.lines);
  if (trimmed.length < hunk.lines.length) attempts.push({ lines: trimmed, trimmed: true });
  for (const attempt of attempts) {
    const oldSide = attempt.lines.filter((l) => l.kind !== '+').map((l) => l.text);
    if (oldSide.length === 0) {
      // Pure insertion without context: only possible in an empty file or at a stated line.
      if (fileLines.length === 0)
        return { hunk, lines: attempt.lines, start: 0, end: 0, level: 'exact', trimmed: false };
      if (hunk.oldStart !== undefined && hunk.oldStart <= fileLines.length && hunk.oldStart >= cursor) {
        return {
          hunk,
          lines: attempt.lines,
          start: hunk.oldStart,
          end: hunk.oldStart,
          level: 'exact',
          trimmed: false,
        };
      }
      return {
        error: fail(
          hunk.index,
          'no_context',
          `Hunk ${hunk.index} only adds lines and has no context lines to locate it. Add 2-3 unchanged lines around the insertion.`,
        ),
      };
    }
    const found: BlockLocation | undefined = locateBlock(fileLines, oldSide, { from: cursor });
    if (!found) continue;
    if (found.matches.length > 1) {
      const lines = found.matches.map((m) => m.start + 1);
      return {
        error: fail(
          hunk.index,
          'ambiguous',
          `Hunk ${hunk.index} matches ${found.matches.length} places (lines ${lines.slice(0, 10).join(', ')}); it was not applied. Add more context lines so it matches exactly one place.`,
          found.matches.slice(0, 5).map((m) => ({ line: m.start + 1, text: fileLines[m.start]! })),
        ),
      };
    }
    const m = found.matches[0]!;
    return {
      hunk,
      lines: attempt.lines,
      start: m.start,
      end: m.end,
      level: found.level,
      trimmed: attempt.trimmed,
    };
  }
  const oldSide = hunk.lines.filter((l) => l.kind !== '+').map((l) => l.text);
  const behind = cursor > 0 && locateBlock(fileLines, oldSide) !== undefined;
  const near = closestRegion(fileLines, oldSide);
  const candidates = near ? [{ line: near.startLine, text: near.snippet }] : [];
  const why = behind
    ? `Hunk ${hunk.index} only matches before the previous hunk; hunks must be in file order and must not overlap.`
    : `Hunk ${hunk.index}: its context and - lines were not found in the file (not even ignoring whitespace, indentation and typographic quotes).`;
  return {
    error: fail(
      hunk.index,
      behind ? 'out_of_order' : 'not_found',
      `${why}${near ? ` The nearest candidate is at line ${near.startLine}:\n${near.snippet}` : ''}\nRe-read the file and rebuild the diff against its current content.`,
      candidates,
    ),
  };
}
