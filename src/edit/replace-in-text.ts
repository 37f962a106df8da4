import type { ErrorCode } from '../sandbox/errors.js';
import type { KnownShared } from './bounded-diff.js';
import { closestRegion } from './closest-region.js';
import { locateBlock, reindent } from './match-cascade.js';
import type { MatchLevel } from './normalize-line.js';
import { detectEol, joinLines, lineNumbersAt, splitLines, toFileEol, withoutBom } from './text-format.js';

export interface ReplaceRequest {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

export type ReplaceResult =
  | {
      ok: true;
      newText: string;
      replacements: number;
      matchLevel: MatchLevel;
      /** 1-based first line of each match (in the original text). */
      matchLines: number[];
      firstChangedLine: number;
      linesChanged: number;
      /** Characters at the start and end of the text the edit did not touch (a hint for diffing). */
      unchanged: KnownShared;
    }
  | {
      ok: false;
      code: ErrorCode;
      message: string;
      suggestions?: string[];
      details?: Record<string, unknown>;
    };

const MAX_LISTED = 20;

function notUnique(count: number, lines: number[], level: MatchLevel): ReplaceResult {
  const listed = lines.slice(0, MAX_LISTED).join(', ') + (lines.length > MAX_LISTED ? ', …' : '');
  const how = level === 'exact' ? '' : ` (matching ignoring ${level.replace('_', ' ')})`;
  return {
    ok: false,
    code: 'edit_not_unique',
    message: `Found ${count} matches for old_string${how}. Matches at lines: ${listed}. Nothing was changed. Add surrounding lines to old_string so it matches exactly one place, or set replace_all: true to change every match.`,
    suggestions: [
      'Include 2-3 neighbouring lines in old_string',
      'Use replace_all: true to change all matches',
    ],
    details: { match_count: count, match_lines: lines, match_level: level },
  };
}

/** Every start offset of `needle` in `haystack`, overlapping ones included (for honest ambiguity counts). */
function allOffsets(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/**
 * edit_file's core: find `oldString` (exact substring first, then the line
 * cascade) and replace it. An ambiguous match is never applied. Line endings,
 * BOM and untouched lines are kept byte for byte.
 */
export function replaceInText(text: string, request: ReplaceRequest): ReplaceResult {
  if (request.oldString === '') {
    return {
      ok: false,
      code: 'invalid_argument',
      message: 'old_string is empty; to create or replace a whole file use write_file.',
    };
  }
  if (request.oldString === request.newString) {
    return {
      ok: false,
      code: 'invalid_argument',
      message: 'old_string and new_string are identical; there is nothing to change.',
    };
  }
  const { body, restore } = withoutBom(text);
  const eol = detectEol(body);
  const oldText = toFileEol(request.oldString, eol);
  const newText = toFileEol(request.newString, eol);

  const offsets = allOffsets(body, oldText);
  if (offsets.length > 0) {
    const lines = lineNumbersAt(body, offsets);
    if (offsets.length > 1 && !request.replaceAll) return notUnique(offsets.length, lines, 'exact');
    // Replace non-overlapping occurrences left to right; indexOf keeps `$&` etc. literal.
    let out = '';
    let last = 0;
    let count = 0;
    const used: number[] = [];
    let first = -1;
    offsets.forEach((o, k) => {
      if (o < last) return;
      if (first === -1) first = o;
      out += body.slice(last, o) + newText;
      last = o + oldText.length;
      count++;
      used.push(lines[k]!);
    });
    out += body.slice(last);
    const bom = text.length - body.length;
    const span = Math.max(oldText.split('\n').length, newText.split('\n').length);
    return {
      ok: true,
      newText: restore(out),
      replacements: count,
      matchLevel: 'exact',
      matchLines: used,
      firstChangedLine: used[0]!,
      linesChanged: span * count,
      unchanged: { head: bom + first, tail: body.length - last },
    };
  }
  return replaceByLines(body, restore, request, eol);
}

/** The lenient levels work on whole lines. */
function replaceByLines(
  body: string,
  restore: (b: string) => string,
  request: ReplaceRequest,
  eol: '\n' | '\r\n',
): ReplaceResult {
  const split = splitLines(body);
  const needle = trimFinalEmpty(request.oldString.replaceAll('\r\n', '\n').split('\n'));
  const replacement = trimFinalEmpty(request.newString.replaceAll('\r\n', '\n').split('\n'));
  const found = locateBlock(split.lines, needle, {
    levels: ['trailing_whitespace', 'indentation', 'unicode'],
  });
  if (!found) return notFound(split.lines, needle);
  const lines = found.matches.map((m) => m.start + 1);
  if (found.matches.length > 1 && !request.replaceAll)
    return notUnique(found.matches.length, lines, found.level);
  // Non-overlapping matches, applied bottom-up so earlier indices stay valid.
  const chosen = found.matches.filter((m, i, all) => i === 0 || m.start >= all[i - 1]!.end);
  const deleting = request.newString === '';
  for (const m of [...chosen].reverse()) {
    const window = split.lines.slice(m.start, m.end);
    const adjusted =
      found.level === 'trailing_whitespace' ? replacement : reindent(replacement, needle, window);
    const tail = split.terminators[m.end - 1]!;
    const newLines = deleting ? [] : adjusted;
    const newTerms = newLines.map((_, i) => (i === newLines.length - 1 ? tail : eol));
    split.lines.splice(m.start, m.end - m.start, ...newLines);
    split.terminators.splice(m.start, m.end - m.start, ...newTerms);
  }
  return {
    ok: true,
    newText: restore(joinLines(split)),
    replacements: chosen.length,
    matchLevel: found.level,
    matchLines: chosen.map((m) => m.start + 1),
    firstChangedLine: chosen[0]!.start + 1,
    linesChanged: Math.max(needle.length, replacement.length) * chosen.length,
    unchanged: { head: 0, tail: 0 },
  };
}

function trimFinalEmpty(lines: string[]): string[] {
  return lines.length > 1 && lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}

function notFound(fileLines: readonly string[], needle: readonly string[]): ReplaceResult {
  const near = closestRegion(fileLines, needle);
  const hint = near
    ? ` Did you mean lines ${near.startLine}-${near.endLine}?\n${near.snippet}`
    : ' No similar region was found.';
  return {
    ok: false,
    code: 'edit_not_found',
    message: `old_string was not found (also not when ignoring whitespace, indentation and typographic quotes). The file has ${fileLines.length} lines.${hint}\nRe-read the file and copy old_string exactly as it is now.`,
    suggestions: near
      ? [`Re-read lines ${near.startLine}-${near.endLine} and retry`]
      : ['Re-read the file with read_file'],
    details: {
      file_lines: fileLines.length,
      ...(near ? { closest: { start_line: near.startLine, end_line: near.endLine } } : {}),
    },
  };
}
