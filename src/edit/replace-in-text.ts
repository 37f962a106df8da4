import { constants } from 'node:buffer';
import type { ErrorCode } from '../contract/errors.js';
import { withScratchBytes } from '../text/scratch-bytes.js';
import { rebuildReplacement, rebuiltTerminators, styleNear } from './align-replacement.js';
import { allOffsets } from './all-offsets.js';
import { locateSpans, type SpanMatch } from './block-index.js';
import { checkedChanges, type KnownShared, type TextChange } from './bounded-diff.js';
import { closestRegion } from './closest-region.js';
import { HitChanges } from './hit-changes.js';
import { LineTable } from './line-table.js';
import { type BlockMatch, locateBlock } from './match-cascade.js';
import type { MatchLevel } from './normalize-line.js';
import {
  addsSecondBom,
  BOM,
  countOf,
  detectEol,
  joinLines,
  lineNumbersAt,
  lineStartAt,
  SECOND_BOM_MESSAGE,
  type SplitLines,
  type TextSplice,
  toFileEol,
  withoutBom,
} from './text-format.js';

export interface ReplaceRequest {
  oldString: string;
  newString: string;
  replaceAll: boolean;
  /** A person's own text: written exactly as given, never re-indented or re-quoted to the file's style. */
  verbatim?: boolean;
  /** False for a file the model may not read unasked: a failure names lines, never shows them. */
  reveal?: boolean;
  /** The text's latin1 bytes when it is all ASCII (a file's own bytes): lines are counted there. */
  bytes?: Uint8Array;
  /** The text is all ASCII (a file with as many bytes as characters): a big replace_all is laid out as bytes. */
  ascii?: boolean;
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
      /** newText as the text with its middle replaced (for writing the unchanged ends as they are). */
      splice: TextSplice;
    }
  | {
      ok: false;
      code: ErrorCode;
      message: string;
      suggestions?: string[];
      details?: Record<string, unknown>;
    };

const MAX_LISTED = 20;
/** Lines a result's details list at most (the count says how many in all). */
const MAX_DETAILED = 1_000;

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
    details: { match_count: count, match_lines: lines.slice(0, MAX_DETAILED), match_level: level },
  };
}

const isBlank = (c: number) => c === 32 || c === 9;

/**
 * Whether the hit at `o` starts inside its line's indentation (the request starts
 * with less of it) or ends where its line's trailing whitespace begins (the request
 * dropped it) in a request that adds or removes lines: line-wise, the whitespace
 * would otherwise stay behind on a line of its own or move to another line. Text
 * replaced by text within one line is a plain replacement: the whitespace stays.
 */
function slipsWhitespace(body: string, o: number, oldText: string, newText: string): boolean {
  if (isBlank(oldText.charCodeAt(0)) && o > 0 && isBlank(body.charCodeAt(o - 1))) {
    let p = o - 1;
    while (p >= 0 && isBlank(body.charCodeAt(p))) p--;
    if (p < 0 || body.charCodeAt(p) === 10) return true;
  }
  const end = o + oldText.length;
  const linesChange = oldText.includes('\n') || newText === '' || newText.includes('\n');
  if (linesChange && !oldText.endsWith('\n') && isBlank(body.charCodeAt(end))) {
    let p = end;
    while (p < body.length && isBlank(body.charCodeAt(p))) p++;
    if (p === body.length || body.charCodeAt(p) === 10 || body.charCodeAt(p) === 13) return true;
  }
  return false;
}

/**
 * Lines a replacement of every hit changes: each hit's (the more of its old and new
 * text's lines; a text ending in a newline ends its last line), and a line the hit
 * before also changed counted once.
 */
function linesChangedBy(hitLines: readonly number[], oldText: string, newText: string): number {
  const linesOf = (t: string) => Math.max(1, countOf(t, '\n') + (t.endsWith('\n') ? 0 : 1));
  const oldLines = linesOf(oldText);
  const span = Math.max(oldLines, linesOf(newText));
  let total = 0;
  let lastLine = 0;
  for (const line of hitLines) {
    total += line <= lastLine ? span - 1 : span;
    lastLine = line + oldLines - 1;
  }
  return total;
}

/** Offsets of non-overlapping occurrences, left to right. */
function nonOverlapping(offsets: readonly number[], length: number): readonly number[] {
  // Usually none overlap: the offsets themselves (a million hits are not copied).
  let k = 1;
  while (k < offsets.length && offsets[k]! >= offsets[k - 1]! + length) k++;
  if (k >= offsets.length) return offsets;
  const out: number[] = [];
  let last = 0;
  for (const o of offsets) {
    if (o < last) continue;
    out.push(o);
    last = o + length;
  }
  return out;
}

/** Part of the file split into a line table: `table` holds the body from `offset`, from line `firstLine` on. */
interface Region {
  table: LineTable;
  offset: number;
  firstLine: number;
}

/**
 * edit_file's core: find `oldString` (exact substring first, then the line
 * cascade) and replace it. An ambiguous match is never applied. Line endings,
 * BOM and every line the request leaves unchanged are kept byte for byte.
 */
export function replaceInText(text: string, request: ReplaceRequest): ReplaceResult {
  const result = replaceMatched(text, request);
  if (!result.ok) return result;
  if (addsSecondBom(text, result.splice))
    return { ok: false, code: 'invalid_argument', message: SECOND_BOM_MESSAGE };
  // Success means something changed: a new_string that differs only in what the file keeps as
  // it is (line endings, the trailing whitespace of an unchanged line) would write the same bytes.
  const { head, middle, tail } = result.splice;
  if (middle !== text.slice(head, text.length - tail)) return result;
  return {
    ok: false,
    code: 'invalid_argument',
    message: `old_string matched (line ${result.matchLines.slice(0, MAX_LISTED).join(', ')}${result.matchLines.length > MAX_LISTED ? ', …' : ''}), but the edit would change nothing: new_string differs from it only in line endings or trailing whitespace, which edit_file keeps as the file has them (new lines take the file's line ending; unchanged lines keep their bytes). Nothing was changed. To change line endings or trailing whitespace, write the whole file with write_file.`,
    details: { match_lines: result.matchLines.slice(0, MAX_DETAILED), match_level: result.matchLevel },
  };
}

function replaceMatched(text: string, given: ReplaceRequest): ReplaceResult {
  // Bytes that are not this text's, one for one, are not used.
  const { bytes, ...rest } = given;
  const request: ReplaceRequest = bytes?.length === text.length ? given : rest;
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
  const { body, restore } = withoutBom(text, request.oldString.startsWith(BOM));
  const bom = text.length - body.length;
  const eol = detectEol(body);
  // The request in the file's line ending first; as written too when that differs (in a
  // file of mixed endings, the lines it was copied from may end as it does).
  const converted = {
    oldText: toFileEol(request.oldString, eol),
    newText: toFileEol(request.newString, eol),
  };
  const variants = [converted];
  if (request.oldString !== converted.oldText)
    variants.push({ oldText: request.oldString, newText: request.newString });
  let slipped: ExactHits | undefined;
  for (const variant of variants) {
    const offsets = allOffsets(body, variant.oldText);
    if (offsets.length === 0) continue;
    const hits = { ...variant, offsets };
    // A hit that only exists because the model dropped part of a line's indentation or trailing
    // whitespace is a whitespace slip, not an exact match: the line cascade handles it.
    if (!offsets.every((o) => slipsWhitespace(body, o, variant.oldText, variant.newText)))
      return replaceExact(body, restore, bom, hits, request);
    slipped ??= hits;
  }
  const fuzzy = replaceFuzzy(body, restore, bom, request, eol);
  if (!slipped) return fuzzy;
  // The cascade reads a slip as whole lines; where it finds nothing there (the request is part
  // of a line, or matches other lines only), the text is still there exactly: a plain replacement.
  // With replace_all, the lines it matches besides the slipped hits are matches too.
  const hitLines = lineNumbersAt(body, slipped.offsets, request.bytes);
  // Sets: a replace_all may have a million of each.
  const lineWise =
    fuzzy.ok &&
    (request.replaceAll
      ? hitLines.every(has(new Set(fuzzy.matchLines)))
      : fuzzy.matchLines.every(has(new Set(hitLines))));
  if (lineWise) return fuzzy;
  // Line-wise it matches in more than one place: which lines the request means is unknown (the
  // slip may be on either side), and writing the slipped hit would leave its whitespace behind.
  if (!fuzzy.ok && fuzzy.code === 'edit_not_unique') return fuzzy;
  return replaceExact(body, restore, bom, slipped, request);
}

const has =
  <T>(set: ReadonlySet<T>) =>
  (value: T) =>
    set.has(value);

/** From this many exact hits a replacement is one native pass (fewer: slices joined, no whole copy). */
const MANY_HITS = 1_000;

/** Where a request's old text occurs exactly, with the new text that replaces it there. */
interface ExactHits {
  oldText: string;
  newText: string;
  offsets: number[];
}

/**
 * An exact match is a plain replacement (str-replace semantics, which models are trained
 * on): no re-indentation and no newline rule; those apply only to fuzzy (line) matches.
 */
function replaceExact(
  body: string,
  restore: (b: string) => string,
  bom: number,
  { oldText, newText, offsets }: ExactHits,
  { replaceAll, bytes, ascii }: ReplaceRequest,
): ReplaceResult {
  const lines = lineNumbersAt(body, offsets, bytes);
  if (offsets.length > 1 && !replaceAll) return notUnique(offsets.length, lines, 'exact');
  const chosen = nonOverlapping(offsets, oldText.length);
  const last = chosen.at(-1)! + oldText.length;
  let out: string;
  let middle = '';
  if (chosen.length < MANY_HITS) {
    // Slices joined: the new text stays pieces of the old one (nothing copied whole).
    let at = chosen[0]!;
    for (const o of chosen) {
      middle += body.slice(at, o) + newText;
      at = o + oldText.length;
    }
    out = body.slice(0, chosen[0]!) + middle + body.slice(last);
  } else {
    // An ASCII file's bytes are its text: the new text is laid out once as bytes and decoded
    // once. Else one native pass: replaceAll takes the same hits (left to right, each after
    // the one before), with `$` escaped so `$&` etc. stay literal. Both hold no piece per hit;
    // replaceAll's result is a rope of a few pieces per hit until it is flattened, which
    // leaves them all to the garbage collector (twice the file's size for a million hits).
    out =
      ascii && isAscii(newText)
        ? replacedAscii(body, chosen, oldText.length, newText)
        : body.replaceAll(oldText, newText.replaceAll('$', '$$$$'));
    middle = out.slice(chosen[0]!, out.length - (body.length - last));
  }
  // The chosen hits are the offsets, or some of them (both ascending): their lines are known.
  const used: number[] = chosen.length === offsets.length ? lines : [];
  for (let k = 0, c = 0; used !== lines && c < chosen.length; k++) {
    if (offsets[k] !== chosen[c]) continue;
    used.push(lines[k]!);
    c++;
  }
  return {
    ok: true,
    newText: restore(out),
    replacements: chosen.length,
    matchLevel: 'exact',
    matchLines: used,
    firstChangedLine: used[0]!,
    linesChanged: linesChangedBy(used, oldText, newText),
    unchanged: {
      head: bom + chosen[0]!,
      tail: body.length - last,
      headLines: used[0]! - 1,
      // Each replacement where it is (the text between two of them is copied).
      ...(chosen.length > 1 ? { changes: new HitChanges(chosen, bom, oldText.length, newText.length) } : {}),
    },
    splice: { head: bom + chosen[0]!, middle, tail: body.length - last },
  };
}

/** The line cascade (trailing whitespace, indentation, unicode): whole lines of the file. */
function replaceFuzzy(
  body: string,
  restore: (b: string) => string,
  bom: number,
  request: ReplaceRequest,
  eol: '\n' | '\r\n',
): ReplaceResult {
  const needle = requestLines(request.oldString);
  const spans = locateSpans(body, needle, FUZZY_LEVELS);
  if (spans === 'not_found') return notFound(new LineTable(body), needle, request.reveal ?? true);
  if (spans !== undefined)
    return replaceSpans(body, restore, bom, spans.matches, needle, request, spans.level, eol);
  const table = new LineTable(body);
  const found = locateBlock(table, needle, { levels: FUZZY_LEVELS });
  if (!found) return notFound(table, needle, request.reveal ?? true);
  const lines = found.matches.map((m) => m.start + 1);
  if (found.matches.length > 1 && !request.replaceAll)
    return notUnique(found.matches.length, lines, found.level);
  // Left to right, each match that starts after the last one taken (as the exact level's).
  const chosen: BlockMatch[] = [];
  for (const m of found.matches) if (chosen.length === 0 || m.start >= chosen.at(-1)!.end) chosen.push(m);
  const region = { table, offset: 0, firstLine: 0 };
  return replaceBlocks(body, region, restore, bom, chosen, needle, request, found.level, eol);
}

const FUZZY_LEVELS = ['trailing_whitespace', 'indentation', 'unicode'] as const;

/**
 * The line cascade's matches, found as offsets (locateSpans): only the lines from
 * the one before the first match to the last match are split into a table.
 */
function replaceSpans(
  body: string,
  restore: (b: string) => string,
  bom: number,
  matches: readonly SpanMatch[],
  needle: readonly string[],
  request: ReplaceRequest,
  level: MatchLevel,
  eol: '\n' | '\r\n',
): ReplaceResult {
  const lines = lineNumbersAt(
    body,
    matches.map((m) => m.start),
    request.bytes,
  );
  if (matches.length > 1 && !request.replaceAll) return notUnique(matches.length, lines, level);
  const chosen: Array<{ match: SpanMatch; line: number }> = [];
  matches.forEach((match, i) => {
    if (i === 0 || match.start >= chosen.at(-1)!.match.end) chosen.push({ match, line: lines[i]! });
  });
  const first = chosen[0]!;
  // From the line before the first match: replaceBlocks may move a final "no newline" onto it.
  const offset = first.line > 1 ? lineStartAt(body, first.match.start - 1) : 0;
  const firstLine = first.line > 1 ? first.line - 2 : 0;
  const table = new LineTable(body.slice(offset, chosen.at(-1)!.match.end));
  const blocks = chosen.map(({ line }) => ({
    start: line - 1 - firstLine,
    end: line - 1 - firstLine + needle.length,
  }));
  return replaceBlocks(body, { table, offset, firstLine }, restore, bom, blocks, needle, request, level, eol);
}

/** A request string as lines (LF; a final newline ends the last line rather than adding one). */
function requestLines(s: string): string[] {
  return trimFinalEmpty(s.replaceAll('\r\n', '\n').split('\n'));
}

/**
 * Replaces whole-line blocks (ascending, non-overlapping; lines of the region's
 * table) of the file. Only the lines from the first block to the last are split;
 * the rest is copied as text.
 */
function replaceBlocks(
  body: string,
  region: Region,
  restore: (b: string) => string,
  bom: number,
  blocks: readonly BlockMatch[],
  /** The request's old lines (requestLines of oldString, split once by the caller). */
  needle: readonly string[],
  request: ReplaceRequest,
  level: MatchLevel,
  eol: '\n' | '\r\n',
): ReplaceResult {
  const { table } = region;
  const replacement = request.newString === '' ? [] : requestLines(request.newString);
  // One line before the first block: deleting the last lines may move the "no final newline" onto it.
  const from = Math.max(0, blocks[0]!.start - 1);
  const to = blocks.at(-1)!.end;
  const split = table.split(from, to);
  // Built front to back in one pass: splicing each block into the lines cost a pass over
  // them per block (replace_all over 20,000 blocks took minutes).
  const out: SplitLines = { lines: [], terminators: [] };
  // Characters written so far, and where the last line written starts: each block's place
  // in the edited lines (from the first line's start) is recorded as it is written.
  let written = 0;
  let lastLineAt = 0;
  const push = (line: string, terminator: string) => {
    lastLineAt = written;
    out.lines.push(line);
    out.terminators.push(terminator);
    written += line.length + terminator.length;
  };
  const changes: TextChange[] = [];
  const base = table.offset(from);
  let copied = 0;
  const copyUpTo = (line: number) => {
    for (; copied < line; copied++) push(split.lines[copied]!, split.terminators[copied]!);
  };
  let maxSpan = 0;
  // A replace_all meets the same matched lines again and again: their rebuilt replacement
  // is the same whenever the file's style (looked at around each match) was not asked for.
  const rebuiltFor = new Map<string, ReturnType<typeof rebuildReplacement>>();
  for (const m of blocks) {
    const start = m.start - from;
    const end = m.end - from;
    copyUpTo(start);
    const window = split.lines.slice(start, end);
    // Only a replace_all meets matched lines again.
    const key = blocks.length > 1 ? window.join('\n') : undefined;
    let rebuilt = request.verbatim
      ? { ok: true as const, lines: replacement.map((text) => ({ text })) }
      : key === undefined
        ? undefined
        : rebuiltFor.get(key);
    if (!rebuilt) {
      const style = styleNear(
        body,
        region.offset + table.offset(m.start),
        region.offset + table.offset(m.end),
      );
      let styleAsked = false;
      rebuilt = rebuildReplacement(needle, window, replacement, level, [], () => {
        styleAsked = true;
        return style();
      });
      if (!styleAsked && key !== undefined) rebuiltFor.set(key, rebuilt);
    }
    if (!rebuilt.ok) return rebuilt;
    const terms = split.terminators.slice(start, end);
    const tail = terms.at(-1)!;
    let change = { oldFrom: table.offset(m.start) - base, newFrom: written };
    // Deleting the last lines of a file without a final newline: the line before ends the file now.
    if (rebuilt.lines.length === 0 && tail === '' && out.terminators.length > 0) {
      written -= out.terminators.at(-1)!.length;
      out.terminators[out.terminators.length - 1] = '';
      change = { oldFrom: table.offset(m.start - 1) - base, newFrom: lastLineAt };
    }
    const newTerms = rebuiltTerminators(rebuilt.lines, terms, eol, tail);
    for (let i = 0; i < rebuilt.lines.length; i++) push(rebuilt.lines[i]!.text, newTerms[i]!);
    const prev = changes.at(-1);
    const oldTo = table.offset(m.end) - base;
    if (prev && change.oldFrom < prev.oldTo) Object.assign(prev, { oldTo, newTo: written });
    else changes.push({ ...change, oldTo, newTo: written });
    copied = end;
    maxSpan = Math.max(maxSpan, end - start, rebuilt.lines.length);
  }
  copyUpTo(split.lines.length);
  const head = region.offset + table.offset(from);
  const rest = region.offset + table.offset(to);
  const edited = joinLines(out);
  return {
    ok: true,
    newText: restore(body.slice(0, head) + edited + body.slice(rest)),
    replacements: blocks.length,
    matchLevel: level,
    matchLines: blocks.map((m) => region.firstLine + m.start + 1),
    firstChangedLine: region.firstLine + blocks[0]!.start + 1,
    linesChanged: maxSpan * blocks.length,
    // Checked only when read (an approval's diff asks; a write does not).
    get unchanged() {
      const splice = { head: bom + head, middle: edited, tail: body.length - rest };
      const at = (c: TextChange) => ({
        oldFrom: c.oldFrom + splice.head,
        oldTo: c.oldTo + splice.head,
        newFrom: c.newFrom + splice.head,
        newTo: c.newTo + splice.head,
      });
      const firstLine = region.firstLine + table.lineAt(changes[0]!.oldFrom + base);
      return (
        checkedChanges(restore(body), splice, changes.map(at), firstLine) ?? {
          head: splice.head,
          tail: splice.tail,
          headLines: region.firstLine + from,
        }
      );
    },
    splice: { head: bom + head, middle: edited, tail: body.length - rest },
  };
}

function trimFinalEmpty(lines: string[]): string[] {
  return lines.length > 1 && lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}

function notFound(fileLines: LineTable, needle: readonly string[], reveal: boolean): ReplaceResult {
  const near = closestRegion(fileLines, needle);
  const hint = near
    ? ` Did you mean lines ${near.startLine}-${near.endLine}?${reveal ? `\n${near.snippet}` : ''}`
    : ' No similar region was found.';
  return {
    ok: false,
    code: 'edit_not_found',
    message: `old_string was not found (also not when ignoring whitespace, indentation and typographic quotes). The file has ${fileLines.count} lines.${hint}\nRe-read the file and copy old_string exactly as it is now.`,
    suggestions: near
      ? [`Re-read lines ${near.startLine}-${near.endLine} and retry`]
      : ['Re-read the file with read_file'],
    details: {
      file_lines: fileLines.count,
      ...(near ? { closest: { start_line: near.startLine, end_line: near.endLine } } : {}),
    },
  };
}

const { MAX_STRING_LENGTH } = constants;

const isAscii = (text: string) => Buffer.byteLength(text, 'utf8') === text.length;

/**
 * ASCII `text` with the `length` characters at each of `offsets` (ascending, apart)
 * replaced by `replacement` (ASCII too), laid out once as bytes and decoded once. The
 * slices are written where they are (a slice of a flat string is not copied); the
 * bytes are scratch, given back once decoded, so they are not resident beside the text.
 */
function replacedAscii(
  text: string,
  offsets: readonly number[],
  length: number,
  replacement: string,
): string {
  const add = Buffer.from(replacement, 'latin1');
  const size = text.length + offsets.length * (add.length - length);
  // Refused before the bytes are laid out: V8 would refuse the string only after.
  if (size > MAX_STRING_LENGTH) throw new RangeError('Invalid string length');
  return withScratchBytes(size, (out) => {
    let at = 0;
    let p = 0;
    for (const o of offsets) {
      p += out.write(text.slice(at, o), p, 'latin1');
      p += add.copy(out, p);
      at = o + length;
    }
    p += out.write(text.slice(at), p, 'latin1');
    return out.toString('latin1', 0, p);
  });
}
