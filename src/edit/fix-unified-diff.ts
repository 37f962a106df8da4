import { applyPatch } from 'diff';
import { type RebuiltLine, rebuildReplacement, rebuiltTerminators, styleNear } from './align-replacement.js';
import {
  boundedUnifiedDiff,
  checkedChanges,
  type KnownShared,
  shiftHunkHeaders,
  type TextChange,
} from './bounded-diff.js';
import { closestRegion } from './closest-region.js';
import { addedAsWritten, endingsAllow, exactPatch } from './exact-patch.js';
import { KeyedLines } from './keyed-lines.js';
import { LineTable } from './line-table.js';
import { type BlockLocation, locateBlock, locateExact } from './match-cascade.js';
import { MATCH_LEVELS, type MatchLevel } from './normalize-line.js';
import { hunkLines, type LooseHunk, oldSide, parseLooseDiff } from './parse-unified-diff.js';
import {
  addsSecondBom,
  BOM,
  detectEol,
  joinLines,
  SECOND_BOM_MESSAGE,
  type SplitLines,
  type TextSplice,
  withoutBom,
} from './text-format.js';

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
  | {
      ok: true;
      newText: string;
      /** newText as the text with its middle replaced (for writing the unchanged ends as they are). */
      splice: TextSplice;
      /** Where the hunks changed the text: their changed lines, context left out. */
      unchanged: KnownShared;
      correctedDiff: string;
      relocated: boolean;
      hunks: FixedHunk[];
    }
  | {
      ok: false;
      code: 'invalid_diff';
      internal?: boolean;
      message: string;
      details?: { hunk?: number; reason: string; candidates?: Array<{ line: number; text?: string }> };
    };

/** The hunk's lines around its changes with one context line each side (a second attempt at locating it). */
function trimContext(hunk: LooseHunk): { from: number; to: number } {
  let first = hunk.first;
  while (first < hunk.last && hunk.diff.kind(first) === ' ') first++;
  let last = hunk.last - 1;
  while (last >= hunk.first && hunk.diff.kind(last) === ' ') last--;
  return { from: Math.max(hunk.first, first - 1), to: Math.min(hunk.last, last + 2) };
}

export interface Placement {
  hunk: LooseHunk;
  /** The hunk lines [from, to) that were placed (all of them, or the trimmed ones). */
  from: number;
  to: number;
  /** 0-based file lines [start, end) the placed lines' old side matched. */
  start: number;
  end: number;
  level: MatchLevel;
  trimmed: boolean;
}

function fail(
  hunk: number | undefined,
  reason: string,
  message: string,
  candidates?: Array<{ line: number; text?: string }>,
): FixDiffResult {
  return {
    ok: false,
    code: 'invalid_diff',
    message,
    details: { ...(hunk === undefined ? {} : { hunk }), reason, ...(candidates ? { candidates } : {}) },
  };
}

/** The file's lines, located through a line table (never split whole). */
class FileLines {
  /** Blocks located so far by a search of the file from the cursor on. */
  searches = 0;
  /** The lines grouped by key, once searching each hunk through the file has cost enough. */
  keyed: KeyedLines | undefined;
  constructor(readonly table: LineTable) {}
  get count(): number {
    return this.table.count;
  }
}

/**
 * Hunks located by a search of the rest of the file before the file's lines are
 * grouped by key (see KeyedLines): a search is cheaper than grouping for a few
 * hunks, and thousands of them must not each cost a pass over the file.
 */
const SEARCHES_BEFORE_GROUPING = 8;

/** locateBlock over the file: the exact level by text search, the lenient levels line by line. */
function locate(file: FileLines, needle: readonly string[], from = 0): BlockLocation | undefined {
  if (!file.keyed && ++file.searches > SEARCHES_BEFORE_GROUPING) file.keyed = new KeyedLines(file.table);
  if (file.keyed) {
    for (const level of MATCH_LEVELS) {
      const matches = file.keyed.locate(needle, level, from, file.count);
      if (matches.length > 0) return { level, matches };
    }
    return undefined;
  }
  const exact = locateExact(file.table, needle, from);
  if (exact === undefined) return locateBlock(file.table, needle, { from });
  if (exact.length > 0) return { level: 'exact', matches: exact };
  return locateBlock(file.table, needle, { from, levels: MATCH_LEVELS.slice(1) });
}

/**
 * Where the placed hunks changed the text: each run of changed lines of a hunk
 * (`fine`), or each hunk without its context lines. Old lines come from the
 * file's table, new lines from the patched window `applied` (which starts at
 * line `from`). A change of the file's last lines also takes in the line before
 * it when that line's ending changed (a last line without a newline is followed).
 */
function placedChanges(
  table: LineTable,
  placements: readonly Placement[],
  applied: string,
  bom: number,
  from: number,
  fine: boolean,
): { changes: TextChange[]; firstLine: number } {
  const window = new LineTable(applied);
  const windowAt = bom + table.offset(from);
  // A last line left empty and unterminated has no characters: lines past the table start at its end.
  const newAt = (n: number) => windowAt + (window.starts[Math.min(n - from, window.count)] ?? Number.NaN);
  const changes: TextChange[] = [];
  let firstLine = -1;
  const add = (o0: number, o1: number, n0: number, n1: number) => {
    const lineEnd =
      o1 === table.count && o0 > 0 && table.terminator(o0 - 1) !== window.terminator(n0 - 1 - from);
    const before = lineEnd ? 1 : 0;
    if (firstLine < 0) firstLine = o0 - before;
    const change = {
      oldFrom: bom + table.offset(o0 - before),
      oldTo: bom + table.offset(o1),
      newFrom: newAt(n0 - before),
      newTo: newAt(n1),
    };
    const prev = changes.at(-1);
    // Taking in the line before may reach the change before: one change then.
    if (prev && change.oldFrom < prev.oldTo)
      Object.assign(prev, { oldTo: change.oldTo, newTo: change.newTo });
    else changes.push(change);
  };
  let delta = 0;
  for (const p of placements) {
    let o = p.start;
    let n = p.start + delta;
    let group: [number, number] | undefined;
    let first: [number, number] | undefined;
    let last: [number, number] = [o, n];
    for (let k = p.from; k < p.to; k++) {
      const kind = p.hunk.diff.kind(k);
      if (kind === ' ') {
        if (group && fine) add(group[0], o, group[1], n);
        group = undefined;
        o++;
        n++;
        continue;
      }
      group ??= [o, n];
      first ??= [o, n];
      if (kind === '-') o++;
      else n++;
      last = [o, n];
    }
    if (group && fine) add(group[0], o, group[1], n);
    if (!fine && first) add(first[0], last[0], first[1], last[1]);
    delta = n - o;
  }
  return { changes, firstLine };
}

/** Context lines kept around the hunks when the exact patch is rebuilt (a unified diff's usual 3). */
const MARGIN = 3;

/**
 * The patched window with the final newline the diff asks for, when the last hunk
 * reaches the end of the file and its markers say the ending changes: the new side's
 * last line marked `\ No newline at end of file` where the old one was not (the
 * newline is dropped), or the old side's marked and the new side's not (the new
 * last line, added or context, is terminated), as `patch` reads a diff. The window's
 * last line ends as the file's did (`terminated`; an empty file's added lines are
 * terminated), so only that needs to change; `lines` says whether the window has a
 * line at all (an empty string is also one empty unterminated line). Markers that
 * say the ending stays, or none, keep the file's own ending, whatever the diff
 * believed it was.
 */
function withFinalNewline(
  window: string,
  last: Placement,
  end: number,
  { eol, lastEnd, terminated, lines }: { eol: string; lastEnd: string; terminated: boolean; lines: number },
): string {
  const marks = last.hunk.noFinalNewline;
  if (!marks || marks.old === marks.new || last.end !== end || lines === 0) return window;
  // The last line's own end is dropped (a CR before it may be the line's text).
  if (marks.new)
    return terminated && lastEnd !== '' && window.endsWith(lastEnd)
      ? window.slice(0, -lastEnd.length)
      : window;
  return terminated ? window : window + eol;
}

/** How many lines the window [from, to) has once every hunk is applied. */
function patchedLineCount(placements: Placement[], from: number, to: number): number {
  let count = to - from;
  for (const p of placements) {
    count -= p.end - p.start;
    for (let i = p.hunk.first; i < p.hunk.last; i++) if (p.hunk.diff.kind(i) !== '-') count++;
  }
  return count;
}

/**
 * The line ending most of a diff's `+` lines (the new text's) were written with (a
 * diff of CRLF text keeps their CRs), counted in the diff as given: parsing reads
 * every line ending as LF. A line marked `\ No newline at end of file` has none of
 * its own and is not counted.
 */
function diffEol(diff: string): '\n' | '\r\n' {
  let crlf = 0;
  let lines = 0;
  for (let s = 0; s < diff.length; ) {
    const nl = diff.indexOf('\n', s);
    const end = nl === -1 ? diff.length : nl;
    const added = diff.charCodeAt(s) === 43 && !diff.startsWith('+++ ', s);
    if (added && diff.charCodeAt(end + 1) !== 92) {
      lines++;
      if (end > s && diff.charCodeAt(end - 1) === 13) crlf++;
    }
    s = end + 1;
  }
  return crlf * 2 > lines ? '\r\n' : '\n';
}

/** Whether a text has both CRLF and LF line ends. */
function mixedEnds(text: string): boolean {
  return text.includes('\r\n') && /(?:^|[^\r])\n/.test(text);
}

/** The line end the new side's last line was written with (for the final newline a marker asks to add). */
function newSideEnd(hunk: LooseHunk): string {
  for (let i = hunk.last - 1; i >= hunk.first; i--) if (hunk.diff.kind(i) !== '-') return hunk.diff.ownEnd(i);
  return '\n';
}

/**
 * Lines [from, to) of a hunk that add back, as `+a\r\n`, a line it removes as `-a\r` (a
 * lone CR kept as text before a "No newline" marker): the same bytes with a line end
 * after them, so such a line ends with CRLF whatever the file's convention.
 */
function crReAdded(hunk: LooseHunk, from = hunk.first, to = hunk.last): Set<number> {
  const d = hunk.diff;
  const removed = new Set<string>();
  for (let i = from; i < to; i++) if (d.kind(i) === '-' && d.line(i).endsWith('\r')) removed.add(d.line(i));
  const out = new Set<number>();
  if (removed.size === 0) return out;
  for (let i = from; i < to; i++)
    if (d.kind(i) === '+' && d.ownEnd(i) === '\r\n' && removed.has(`${d.line(i)}\r`)) out.add(i);
  return out;
}

/** Whether the new side's last line of a hunk is such a line (see crReAdded). */
function endsWithCrReAdded(hunk: LooseHunk): boolean {
  const re = crReAdded(hunk);
  for (let i = hunk.last - 1; i >= hunk.first; i--) if (hunk.diff.kind(i) !== '-') return re.has(i);
  return false;
}

/** Whether a hunk has a line whose text ends with a CR kept as its own (see parseLooseDiff). */
function keepsOwnCr(hunk: LooseHunk): boolean {
  if (!hunk.noFinalNewline) return false;
  for (let i = hunk.first; i < hunk.last; i++) if (hunk.diff.line(i).endsWith('\r')) return true;
  return false;
}

/** Whether a hunk's old side has a line starting with a BOM (a diff of the file's bytes names it). */
function namesBom(hunks: readonly LooseHunk[]): boolean {
  return hunks.some((h) => {
    for (let i = h.first; i < h.last; i++)
      if (h.diff.kind(i) !== '+' && h.diff.line(i).startsWith(BOM)) return true;
    return false;
  });
}

/**
 * patch_file's "fix the diff": each hunk is located by its old side (context
 * and `-` lines) with the edit_file matching cascade — never by its @@ numbers —
 * ambiguity is refused, then an exact patch is rebuilt from the file's own bytes
 * and applied strictly with `diff`'s applyPatch. Only the slice of lines the hunks
 * touch (plus context) is split, patched and checked; the rest is copied as text.
 */
export function fixUnifiedDiff(
  text: string,
  diff: string,
  /** Lines kept around the hunks (tests pass Infinity to compare with patching the whole file). */
  margin = MARGIN,
  /** False forces the general path (tests compare the two). */
  fastPath = true,
  /** A person's own diff: added lines land exactly as written (never re-indented to the file's style). */
  verbatim = false,
  /** False for a file the model may not read unasked: a failure names lines, never shows them. */
  reveal = true,
): FixDiffResult {
  const hunks = parseLooseDiff(diff);
  if (hunks.length === 0) {
    return fail(
      undefined,
      'no_hunks',
      'The diff has no hunks with + or - lines. Send a unified diff with @@ hunks.',
    );
  }
  const { body, restore } = withoutBom(text, namesBom(hunks));
  const table = new LineTable(body);
  const file = new FileLines(table);
  const placements: Placement[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    const placed = placeHunk(file, hunk, cursor, reveal);
    if ('error' in placed) return placed.error;
    placements.push(placed);
    cursor = placed.end;
  }
  const from = Math.max(0, placements[0]!.start - margin);
  const to = Math.min(table.count, placements.at(-1)!.end + margin);
  const oldSlice = body.slice(table.offset(from), table.offset(to));
  // A file with no line end yet (empty, or one unterminated line) or with both kinds has no
  // convention to keep: there, a diff that carries CRLFs (a diff of the bytes) is followed,
  // each new line ending as the diff wrote it, as GNU patch does.
  const lineless = !body.includes('\n');
  const eol = lineless ? diffEol(diff) : detectEol(body);
  const ownEnds = hunks[0]!.diff.hasCrlf && (lineless || mixedEnds(body));
  // Every hunk's added lines are its own text, in lines ending like the file: nothing to
  // align, so the corrected patch is built from the hunks and the file without any diff.
  const exact =
    fastPath &&
    !ownEnds &&
    placements.every(addedAsWritten) &&
    endingsAllow(table, placements, eol) &&
    !hunks.some(keepsOwnCr);
  let plan: {
    matches: (applied: string) => boolean;
    patch: Parameters<typeof applyPatch>[1];
    correctedDiff: () => string;
  };
  // How the patched slice's last line ends (the exact path's lines all end with eol).
  let lastEnd: string = eol;
  const ends: { dropped?: string } = {};
  if (exact) plan = exactPatch(table, placements, from, to, eol);
  else {
    const original = table.split(from, to);
    // Built front to back in one pass: splicing each hunk into the lines moved every line after
    // it (1,000 hunks on a 1M-line file took 40 s).
    const window: SplitLines = { lines: [], terminators: [] };
    let copied = 0;
    const copyUpTo = (line: number) => {
      for (; copied < line; copied++) {
        window.lines.push(original.lines[copied]!);
        window.terminators.push(original.terminators[copied]!);
      }
    };
    for (const p of placements) {
      copyUpTo(p.start - from);
      const refused = applyPlacement(original, window, p, from, eol, table, verbatim, ownEnds, ends);
      if (refused) return fail(p.hunk.index, 'unclear_change', `${refused.message}`);
      copied = p.end - from;
    }
    copyUpTo(original.lines.length);
    lastEnd = window.terminators.at(-1) ?? eol;
    const expected = joinLines(window);
    const corrected = boundedUnifiedDiff(oldSlice, expected, {
      oldPath: '/file',
      newPath: '/file',
      timeBudgetMs: 2_000,
    });
    plan = {
      matches: (applied) => applied === expected,
      patch: corrected.unifiedDiff,
      correctedDiff: () => shiftHunkHeaders(corrected.unifiedDiff, from),
    };
  }
  let applied =
    plan.patch === '' ? oldSlice : applyPatch(oldSlice, plan.patch, { autoConvertLineEndings: false });
  if (applied === false || !plan.matches(applied)) {
    return {
      ok: false,
      code: 'invalid_diff',
      internal: true,
      message:
        'Internal error: the corrected patch failed to apply strictly. Nothing was changed; please review the diff for subtle errors or use edit_file.',
      details: { reason: 'strict_apply_failed' },
    };
  }
  const last = placements.at(-1)!;
  applied = withFinalNewline(applied, last, table.count, {
    // The end to give back: the one the new last line had before its deleted lines were cut.
    eol: ends.dropped || (ownEnds || endsWithCrReAdded(last.hunk) ? newSideEnd(last.hunk) : eol),
    lastEnd,
    terminated: body === '' || body.endsWith('\n'),
    lines: patchedLineCount(placements, from, to),
  });
  const newText = restore(body.slice(0, table.offset(from)) + applied + body.slice(table.offset(to)));
  const splice = {
    head: text.length - body.length + table.offset(from),
    middle: applied,
    tail: body.length - table.offset(to),
  };
  if (addsSecondBom(text, splice))
    return fail(placements[0]!.hunk.index, 'unclear_change', SECOND_BOM_MESSAGE);
  return {
    ok: true,
    newText,
    splice,
    // Worked out only when read (an approval's diff asks; a write does not).
    get unchanged() {
      // Each run of changed lines if they check out (a fuzzy hunk may realign its lines), else each hunk.
      const bom = text.length - body.length;
      for (const fine of [true, false]) {
        const { changes, firstLine } = placedChanges(table, placements, applied, bom, from, fine);
        const known = checkedChanges(text, splice, changes, firstLine);
        if (known) return known;
      }
      return { head: splice.head, tail: splice.tail };
    },
    // Built only when read (tests check it applies): a big patch's text is never needed otherwise.
    get correctedDiff() {
      return plan.correctedDiff();
    },
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

/**
 * Applies one placed hunk to the window (whose line 0 is file line `offset`).
 * Context lines — and any line the hunk removes and adds back unchanged — are
 * the file's own lines and terminators; only added lines take the hunk's text
 * (see rebuildReplacement). Undefined, with nothing changed, when that refuses.
 */
function applyPlacement(
  /** The file's lines of the window, as they are. */
  window: SplitLines,
  /** The patched lines so far: the window's lines up to this hunk's, each hunk before applied. */
  out: SplitLines,
  p: Placement,
  offset: number,
  eol: string,
  table: LineTable,
  verbatim: boolean,
  /** Each new line ends as the diff wrote it (a file with no line-end convention: see fixUnifiedDiff). */
  ownEnds: boolean,
  /** Set to the end taken off the line before deleted last lines (a marker may give it back). */
  ends: { dropped?: string },
): { ok: false; message: string } | undefined {
  const start = p.start - offset;
  const end = p.end - offset;
  const matched = window.lines.slice(start, end);
  const terms = window.terminators.slice(start, end);
  const olds: string[] = [];
  const oldEnds: string[] = [];
  const news: string[] = [];
  const newEnds: string[] = [];
  const crLines: number[] = [];
  const reAdded = crReAdded(p.hunk, p.from, p.to);
  const context: Array<[number, number]> = [];
  const d = p.hunk.diff;
  for (let i = p.from; i < p.to; i++) {
    if (reAdded.has(i)) crLines.push(news.length);
    const kind = d.kind(i);
    if (kind === ' ') context.push([olds.length, news.length]);
    if (kind !== '+') {
      olds.push(d.line(i));
      oldEnds.push(d.ownEnd(i));
    }
    if (kind !== '-') {
      news.push(d.line(i));
      newEnds.push(d.ownEnd(i));
    }
  }
  const rebuilt = verbatim
    ? asWritten(p, matched)
    : rebuildReplacement(
        olds,
        matched,
        news,
        p.level,
        context,
        styleNear(table.text, table.offset(p.start), table.offset(p.end)),
      );
  if (!rebuilt.ok) return { ok: false, message: `Hunk ${p.hunk.index}: ${rebuilt.message}` };
  const newLines = rebuilt.lines.map((l) => l.text);
  const tail = end > start ? terms.at(-1)! : eol;
  const newTerms = rebuiltTerminators(rebuilt.lines, terms, eol, tail);
  // Where the diff's own ends are followed, a line kept from the file keeps its end unless the
  // diff changed it (removed with one end, added back with another) or the file gave it none.
  if (ownEnds)
    rebuilt.lines.forEach((l, i) => {
      if (newTerms[i] === '') return;
      const from = l.from;
      if (from === undefined || terms[from] === '' || oldEnds[from] !== newEnds[i]) newTerms[i] = newEnds[i]!;
    });
  for (const i of crLines) if (newTerms[i] !== '') newTerms[i] = '\r\n';
  // The line before this hunk's, as patched so far.
  const before = out.terminators.length - 1;
  // Deleting the last lines of a file without a final newline: the new last line has none either.
  if (newLines.length === 0 && tail === '' && before >= 0) {
    ends.dropped = out.terminators[before]!;
    out.terminators[before] = '';
  }
  if (end === start && start === window.lines.length && before >= 0 && out.terminators[before] === '') {
    // Appending after a last line that had no newline: it gets one, the new last line does not.
    out.terminators[before] = eol;
    if (newTerms.length > 0) newTerms[newTerms.length - 1] = '';
  }
  for (let i = 0; i < newLines.length; i++) {
    out.lines.push(newLines[i]!);
    out.terminators.push(newTerms[i]!);
  }
  return undefined;
}

/** A hunk's new side as written: context lines are the file's own (and keep their endings), added lines the hunk's text. */
function asWritten(p: Placement, matched: readonly string[]): { ok: true; lines: RebuiltLine[] } {
  const lines: RebuiltLine[] = [];
  let at = 0;
  for (const line of hunkLines(p.hunk, p.from, p.to)) {
    if (line.kind === '+') lines.push({ text: line.text });
    else if (line.kind === ' ') {
      lines.push({ text: matched[at]!, from: at });
      at++;
    } else at++;
  }
  return { ok: true, lines };
}

function placeHunk(
  file: FileLines,
  hunk: LooseHunk,
  cursor: number,
  reveal: boolean,
): Placement | { error: FixDiffResult } {
  const attempts = [{ from: hunk.first, to: hunk.last, trimmed: false }];
  const trimmed = trimContext(hunk);
  if (trimmed.to - trimmed.from < hunk.last - hunk.first) attempts.push({ ...trimmed, trimmed: true });
  for (const attempt of attempts) {
    const needle = oldSide(hunk, attempt.from, attempt.to);
    const lines = { from: attempt.from, to: attempt.to };
    if (needle.length === 0) {
      // Pure insertion without context: only possible in an empty file or at a stated line.
      if (file.count === 0) return { hunk, ...lines, start: 0, end: 0, level: 'exact', trimmed: false };
      if (hunk.oldStart !== undefined && hunk.oldStart <= file.count && hunk.oldStart >= cursor) {
        return { hunk, ...lines, start: hunk.oldStart, end: hunk.oldStart, level: 'exact', trimmed: false };
      }
      return {
        error: fail(
          hunk.index,
          'no_context',
          `Hunk ${hunk.index} only adds lines and has no context lines to locate it. Add 2-3 unchanged lines around the insertion.`,
        ),
      };
    }
    const found = locate(file, needle, cursor);
    if (!found) continue;
    if (found.matches.length > 1) {
      const at = found.matches.map((m) => m.start + 1);
      return {
        error: fail(
          hunk.index,
          'ambiguous',
          `Hunk ${hunk.index} matches ${found.matches.length} places (lines ${at.slice(0, 10).join(', ')}); it was not applied. Add more context lines so it matches exactly one place.`,
          found.matches.slice(0, 5).map((m) => ({ line: m.start + 1, text: file.table.line(m.start) })),
        ),
      };
    }
    const m = found.matches[0]!;
    return { hunk, ...lines, start: m.start, end: m.end, level: found.level, trimmed: attempt.trimmed };
  }
  const needle = oldSide(hunk);
  const behind = cursor > 0 && locate(file, needle) !== undefined;
  const near = closestRegion(file.table, needle);
  const candidates = near ? [{ line: near.startLine, ...(reveal ? { text: near.snippet } : {}) }] : [];
  const shown = near
    ? ` The nearest candidate is at line ${near.startLine}${reveal ? `:\n${near.snippet}` : '.'}`
    : '';
  const why = behind
    ? `Hunk ${hunk.index} only matches before the previous hunk; hunks must be in file order and must not overlap.`
    : `Hunk ${hunk.index}: its context and - lines were not found in the file (not even ignoring whitespace, indentation and typographic quotes).`;
  return {
    error: fail(
      hunk.index,
      behind ? 'out_of_order' : 'not_found',
      `${why}${shown}\nRe-read the file and rebuild the diff against its current content.`,
      candidates,
    ),
  };
}
