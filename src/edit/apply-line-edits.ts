import type { ErrorCode } from '../contract/errors.js';
import type { TextChange } from './bounded-diff.js';
import type { LineSplice } from './edit-map.js';
import type { GivenAnchors } from './given-anchors.js';
import type { LineEditOp } from './line-edit-ops.js';
import { hex } from './line-hash.js';
import { LineTable } from './line-table.js';
import { readAnchors } from './read-anchors.js';
import {
  AnchorError,
  type AnchorRequest,
  type ChangeSeen,
  type HeldAnchors,
  LineIndex,
  lineCorrection,
  resolveAnchor,
} from './resolve-anchor.js';
import { bracketBalance, type EditedRegion, type LineList, sanityWarnings } from './sanity-check.js';
import {
  addsSecondBom,
  countOf,
  detectEol,
  SECOND_BOM_MESSAGE,
  type TextSplice,
  withoutBom,
} from './text-format.js';

export type SanityMode = 'reject' | 'warn' | 'off';

/**
 * A mistake in the request that was safe to fix (hash-anchored seed): a reversed
 * range, or an advisory line number the anchor's hash proved wrong.
 */
export interface AutoCorrection {
  type: 'range_order_swapped' | 'line_number_corrected';
  detail: string;
  /** 1-based index of the operation concerned. */
  operation: number;
}

export type LineEditsResult =
  | {
      ok: true;
      newText: string;
      /** newText as the text with its middle replaced (for writing the unchanged ends as they are). */
      splice: TextSplice;
      /** Each place an operation changed the text (offsets in the whole texts; all else is copied). */
      changes: TextChange[];
      /** The first changed line (0-based). */
      firstLine: number;
      /** The operations applied, sorted, in the numbering of the text edited. */
      lineSplices: LineSplice[];
      /**
       * Newlines before the first change (what a diff given `changes` counts from): not
       * always firstLine, e.g. a line added after a last line with no newline starts at
       * that line's end.
       */
      headLines: number;
      opsApplied: number;
      linesBefore: number;
      linesAfter: number;
      anchorsValidThrough: number;
      mustRefreshFromLine: number;
      diff: string;
      autoCorrections: AutoCorrection[];
      warnings: string[];
      /**
       * Line hashes of the text before and after the edit, and the anchors a read of
       * the new text shows (the result diff's), for a LineHashCache.
       */
      lineHashes: { before: Uint32Array; after: Uint32Array; shownAfter: Uint32Array };
    }
  | { ok: false; code: ErrorCode; message: string; details?: Record<string, unknown> };

/** New lines as one text: `count` lines joined by '\n' (no final one), never split into strings. */
interface Block {
  text: string;
  count: number;
}

/** A resolved operation: replace lines [start, end) of the snapshot with `block`. */
interface Splice {
  op: number;
  start: number;
  end: number;
  block: Block;
}

const NO_LINES: Block = { text: '', count: 0 };

/** An operation's content as lines: CRLF taken as one ending, one final newline ending the last line. */
function contentBlock(content: string): Block {
  const lf = content.includes('\r') ? content.replaceAll('\r\n', '\n') : content;
  const text = lf.endsWith('\n') ? lf.slice(0, -1) : lf;
  return { text, count: countOf(text, '\n') + 1 };
}

/** Resolves an anchor; a line number given with it that named another line is reported. */
function resolveReported(
  index: LineIndex,
  request: AnchorRequest,
  held: HeldAnchors | undefined,
  n: number,
  fixes: AutoCorrection[],
): number {
  const at = resolveAnchor(index, request, held);
  const detail = lineCorrection(request, at);
  if (detail) fixes.push({ type: 'line_number_corrected', detail, operation: n + 1 });
  return at;
}

function resolveOp(
  op: LineEditOp,
  n: number,
  index: LineIndex,
  held: HeldAnchors | undefined,
  fixes: AutoCorrection[],
): Splice {
  if (op.op === 'replace_range' || op.op === 'delete_range') {
    let start = resolveReported(
      index,
      { raw: op.start_hash, endpoint: true, field: 'start_hash', ...(op.line ? { line: op.line } : {}) },
      held,
      n,
      fixes,
    );
    let end = resolveReported(index, { raw: op.end_hash, endpoint: true, field: 'end_hash' }, held, n, fixes);
    if (start === end) {
      throw new AnchorError(
        'invalid_range_order',
        `Operation ${n + 1}: start_hash and end_hash are the same line (${start + 1}); use ${op.op === 'replace_range' ? 'replace_line' : 'delete_line'} for one line.`,
      );
    }
    if (start > end) {
      fixes.push({
        type: 'range_order_swapped',
        detail: `start_line (${start + 1}) was after end_line (${end + 1}). Swapped automatically.`,
        operation: n + 1,
      });
      [start, end] = [end, start];
    }
    return {
      op: n,
      start,
      end: end + 1,
      block: op.op === 'replace_range' ? contentBlock(op.content) : NO_LINES,
    };
  }
  const at = resolveReported(
    index,
    {
      raw: op.hash,
      field: 'hash',
      ...(op.occurrence ? { occurrence: op.occurrence } : {}),
      ...(op.line ? { line: op.line } : {}),
    },
    held,
    n,
    fixes,
  );
  switch (op.op) {
    case 'replace_line':
      return { op: n, start: at, end: at + 1, block: contentBlock(op.content) };
    case 'delete_line':
      return { op: n, start: at, end: at + 1, block: NO_LINES };
    case 'insert_after':
      return { op: n, start: at + 1, end: at + 1, block: contentBlock(op.content) };
    case 'insert_before':
      return { op: n, start: at, end: at, block: contentBlock(op.content) };
  }
}

/**
 * Unchanged lines kept around the edits: the sanity checks look one line beyond
 * an edit, the returned diff two, and one more keeps every end-of-file rule local.
 */
const MARGIN = 3;

/**
 * A hashed read whose anchors the model may still use, kept while the file or the
 * toolset's snapshot moved on (edit_lines results, page reads of a later version),
 * with the anchors given since (edit_lines results, pages of later versions).
 */
export interface EarlierRead {
  text: string;
  /** Anchors given since the read, with their lines in the toolset's snapshot version. */
  given: GivenAnchors;
  /** The read's lines and anchors, built on first use and kept with the read. */
  index?: LineIndex;
  /**
   * The edit_lines calls made since the read, while nothing else changed the file
   * (see mapThroughEdits): the read's lines are carried to the last result exactly.
   */
  edits?: readonly (readonly LineSplice[])[];
  /** The changes made elsewhere the toolset saw since the read (edits then count from the last one). */
  via?: readonly ChangeSeen[];
  /** More such changes than are kept: the read's lines are not followed (its anchors are refused). */
  lost?: boolean;
  /** The latest version was met, not shown (see observeVersion): anchors it shows were not given. */
  unshown?: boolean;
}

/**
 * The record of how the read's lines got to `to`, after a change made elsewhere the
 * toolset saw (`from` → `to`): the changes seen so far plus this one (see ChangeSeen),
 * or, past a few, `lost` (the read's anchors are then refused). `earlier` undefined:
 * the read is `from` itself.
 */
export function afterChangeSeen(
  earlier: Pick<EarlierRead, 'edits' | 'via' | 'lost'> | undefined,
  from: LineIndex,
  to: LineIndex,
): Pick<EarlierRead, 'edits' | 'via' | 'lost'> {
  const edits = earlier ? earlier.edits : [];
  const via = [...(earlier?.via ?? []), { from, to, edits: edits ?? [] }];
  // Each step keeps two versions of the file: a few (and not much text), then the read is given up.
  const kept = via.reduce((n, step) => n + step.from.table.text.length + step.to.table.text.length, 0);
  if (!edits || earlier?.lost || via.length > MAX_CHANGES_SEEN || kept > MAX_CHANGE_TEXT)
    return { lost: true };
  return { via, edits: [] };
}

/** Changes made elsewhere followed exactly since a read, at most (each keeps two versions). */
const MAX_CHANGES_SEEN = 4;
/** Characters of those versions kept at most: 64 Mi (two versions of a 32 MB file). */
const MAX_CHANGE_TEXT = 64 * 1024 * 1024;

/** What the model was shown: the read it holds, and the anchors given since (see HeldAnchors). */
function heldAnchors(
  index: LineIndex,
  snapshot: LineIndex | undefined,
  earlier: EarlierRead | undefined,
): HeldAnchors | undefined {
  if (earlier === undefined) return snapshot && { read: snapshot };
  const body = withoutBom(earlier.text).body;
  earlier.index ??= body === index.table.text ? index : new LineIndex(new LineTable(body));
  return {
    read: earlier.index,
    ...(snapshot ? { given: { anchors: earlier.given, version: snapshot } } : {}),
    ...(snapshot && earlier.edits
      ? { edits: earlier.edits, ...(earlier.via ? { via: earlier.via } : {}) }
      : {}),
    ...(earlier.lost ? { lost: true } : {}),
    ...(earlier.unshown ? { unshown: true } : {}),
  };
}

/**
 * edit_lines' core: resolves every operation against ONE snapshot, refuses the
 * whole batch on any bad or overlapping operation, applies bottom-up, and runs
 * sanity checks before anything is returned (so nothing bad is ever written).
 * Only the lines around the edits are split out; the rest is copied as text.
 */
export function applyLineEdits(
  text: string,
  ops: readonly LineEditOp[],
  options: {
    sanity?: SanityMode;
    /** The text of the last hashed read, or of the last edit_lines result (see `earlier`). */
    snapshot?: string;
    /**
     * The hashed read the model holds when `snapshot` is a later version (an edit_lines
     * result, a page of a later version), with the anchors that version's surfaces gave.
     */
    earlier?: EarlierRead;
    /** Line hashes of `text` already at hand (a LineHashCache hit): not computed again. */
    hashes?: Uint32Array;
    /** The anchors a read of `text` shows (readAnchors of `hashes`), when at hand. */
    shown?: Uint32Array;
  } = {},
  /** Lines kept around the edits (tests pass Infinity to compare with splicing the whole file). */
  margin = MARGIN,
): LineEditsResult {
  const { body, restore } = withoutBom(text);
  const table = new LineTable(body);
  const index = new LineIndex(table, options.hashes, options.shown);
  const snapshotBody = options.snapshot === undefined ? undefined : withoutBom(options.snapshot).body;
  // Editing right after the read is the usual case: the same text needs no second index.
  const snapshot =
    snapshotBody === undefined
      ? undefined
      : snapshotBody === body
        ? index
        : new LineIndex(new LineTable(snapshotBody));
  const held = heldAnchors(index, snapshot, options.earlier);
  const fixes: AutoCorrection[] = [];
  let splices: Splice[];
  try {
    splices = ops.map((op, n) => resolveOp(op, n, index, held, fixes));
  } catch (error) {
    if (error instanceof AnchorError)
      return {
        ok: false,
        code: error.code,
        message: `${error.message} No operation was applied.`,
        details: error.details,
      };
    throw error;
  }
  const sorted = [...splices].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (cur.start < prev.end || (cur.start === prev.start && cur.end === prev.end)) {
      return {
        ok: false,
        code: 'invalid_argument',
        message: `Operations ${prev.op + 1} and ${cur.op + 1} overlap (both touch line ${cur.start + 1}); combine them into one operation. No operation was applied.`,
      };
    }
  }
  const linesBefore = table.count;
  const from = Math.max(0, sorted[0]!.start - margin);
  const to = Math.min(linesBefore, sorted.at(-1)!.end + margin);
  const { edited, regions, shift, phantom, changes } = composeWindow(
    table,
    sorted,
    from,
    to,
    detectEol(body),
  );
  // The new window's lines, read back exactly as the new file will split.
  const after = new LineTable(edited);
  const newLine = (i: number) => (i - from < after.count ? after.line(i - from) : '');
  const windowEnd = from + after.count;
  const warnings = options.sanity === 'off' ? [] : sanityWarnings(newLine, windowEnd, regions);
  if (warnings.length > 0 && (options.sanity ?? 'reject') === 'reject') {
    return {
      ok: false,
      code: 'safety_check_failed',
      message: `The edit looks wrong, so it was rolled back (nothing was written): ${warnings.join(' ')} If it is intended, retry with sanity: "warn".`,
      details: { safety_warnings: warnings },
    };
  }
  const first = sorted[0]!.start;
  // The result's anchors are those a read of the new file would show: one kind of anchor
  // everywhere, so an own-hash anchor of a twin can only come from an older read.
  const hashesAt = hashesAfter(index.full, after.hashes(), from, to);
  const shownAfter = readAnchors(hashesAt);
  const windowAt = text.length - body.length + table.offset(from);
  const linesAfter = linesBefore + shift - phantom;
  const lineSplices = sorted.map((x) => ({ start: x.start, end: x.end, count: x.block.count }));
  const splice = {
    head: text.length - body.length + table.offset(from),
    middle: edited,
    tail: body.length - table.offset(to),
  };
  if (addsSecondBom(text, splice))
    return { ok: false, code: 'invalid_argument', message: SECOND_BOM_MESSAGE };
  return {
    ok: true,
    newText: restore(body.slice(0, table.offset(from)) + edited + body.slice(table.offset(to))),
    splice,
    changes: changes.map((c) => ({
      oldFrom: c.oldFrom + windowAt,
      oldTo: c.oldTo + windowAt,
      newFrom: c.newFrom + windowAt,
      newTo: c.newTo + windowAt,
    })),
    firstLine: first,
    lineSplices,
    headLines:
      changes.length > 0 ? newlinesBefore(table, body, table.offset(from) + changes[0]!.oldFrom) : first,
    opsApplied: ops.length,
    linesBefore,
    linesAfter,
    anchorsValidThrough: first,
    mustRefreshFromLine: first + 1,
    diff: anchoredDiff(newLine, linesAfter, regions, (i) => hex(shownAfter[i]!, 6)),
    autoCorrections: fixes,
    warnings,
    lineHashes: { before: index.full, after: hashesAt, shownAfter },
  };
}

/** Newlines in body[0, at): the line holding the character before `at`, plus one if that is a newline. */
function newlinesBefore(table: LineTable, body: string, at: number): number {
  return at === 0 ? 0 : table.lineAt(at - 1) + (body.charCodeAt(at - 1) === 10 ? 1 : 0);
}

/** The new text's line hashes: the old ones outside the window, the edited window's in it. */
function hashesAfter(before: Uint32Array, middle: Uint32Array, from: number, to: number): Uint32Array {
  const after = new Uint32Array(before.length - (to - from) + middle.length);
  after.set(before.subarray(0, from));
  after.set(middle, from);
  after.set(before.subarray(to), from + middle.length);
  return after;
}

/** Lines [from, to) of a table, read on demand. */
function linesOf(table: LineTable, from: number, to: number): LineList {
  return { count: to - from, line: (i) => table.line(from + i) };
}

/** Whether nothing is left after splice k: the splices after it only delete, up to the window's end. */
function nothingAfter(sorted: readonly Splice[], k: number, to: number): boolean {
  let at = sorted[k]!.end;
  for (let j = k + 1; j < sorted.length; j++) {
    const s = sorted[j]!;
    if (s.start !== at || s.block.count > 0) return false;
    at = s.end;
  }
  return at === to;
}

/**
 * The text of lines [from, to) with every splice applied, built as one string from
 * the old text between splices and each splice's block (no string per line). New
 * lines take the file's line ending; a block that ends the text takes the old last
 * line's ending, and a block appended after a last line without a newline gives that
 * line one and keeps none itself. An empty last line without an ending is no line
 * (`phantom`): the text just ends after the line before.
 */
function composeWindow(
  table: LineTable,
  sorted: readonly Splice[],
  from: number,
  to: number,
  eol: string,
): { edited: string; regions: EditedRegion[]; shift: number; phantom: number; changes: TextChange[] } {
  const { text } = table;
  const pieces: string[] = [];
  // Each splice's place in the old window and in the edited one (offsets from the window's start).
  const changes: TextChange[] = [];
  const base = table.offset(from);
  let written = 0;
  const push = (piece: string) => {
    pieces.push(piece);
    written += piece.length;
  };
  const regions: EditedRegion[] = [];
  let cursor = from;
  let shift = 0;
  let lastIsEmptyUnterminated = false;
  sorted.forEach((s, k) => {
    if (cursor < s.start) {
      push(text.slice(table.offset(cursor), table.offset(s.start)));
      lastIsEmptyUnterminated = false;
    }
    const { block } = s;
    const newFrom = written;
    const appendsToUnterminated =
      s.start === s.end && s.start === to && s.start > 0 && table.terminator(s.start - 1) === '';
    // The old last line, written just above, gets an ending now that lines follow it.
    if (appendsToUnterminated && cursor < s.start) push(eol);
    if (block.count > 0) {
      push(eol === '\n' ? block.text : block.text.replaceAll('\n', eol));
      const ending = appendsToUnterminated
        ? ''
        : s.end > s.start && nothingAfter(sorted, k, to)
          ? table.terminator(s.end - 1)
          : eol;
      push(ending);
      lastIsEmptyUnterminated =
        ending === '' && (block.text === '' || block.text.charCodeAt(block.text.length - 1) === 10);
    }
    changes.push({
      oldFrom: table.offset(s.start) - base,
      oldTo: table.offset(s.end) - base,
      newFrom,
      newTo: written,
    });
    regions.push({
      removed: linesOf(table, s.start, s.end),
      removedBalance: bracketBalance(text, table.offset(s.start), table.offset(s.end)),
      addedBalance: bracketBalance(block.text),
      added: block.count,
      at: s.start + shift,
    });
    shift += block.count - (s.end - s.start);
    cursor = s.end;
  });
  if (cursor < to) {
    push(text.slice(table.offset(cursor), table.offset(to)));
    lastIsEmptyUnterminated = false;
  }
  const phantom = to === table.count && lastIsEmptyUnterminated ? 1 : 0;
  return { edited: pieces.join(''), regions, shift, phantom, changes };
}

/** Lines of a region shown in full in the returned diff; a bigger region shows its ends. */
const SHOWN_PER_REGION = 200;

/**
 * A compact diff whose context and added lines carry fresh anchors. `window` holds
 * the new file's lines from line `offset` on; the file has `total` lines. A region
 * of more than SHOWN_PER_REGION added (or removed) lines shows its first and last
 * lines and says how many it leaves out: the model reads those back if it needs
 * their anchors, and a million inserted lines are not echoed into its context.
 */
function anchoredDiff(
  newLine: (i: number) => string,
  total: number,
  regions: readonly EditedRegion[],
  anchorOf: (i: number) => string,
): string {
  const out: string[] = [];
  const anchor = (i: number) => `${i + 1}#${anchorOf(i)}|${newLine(i)}`;
  const half = SHOWN_PER_REGION / 2;
  for (const r of regions) {
    const from = Math.max(0, r.at - 2);
    const to = Math.min(total, r.at + r.added + 2);
    out.push(`@@ line ${r.at + 1} @@`);
    for (let i = from; i < r.at; i++) out.push(` ${anchor(i)}`);
    const removed = r.removed.count;
    for (let k = 0; k < removed; k++) {
      if (removed > SHOWN_PER_REGION && k === half) {
        out.push(`-… ${removed - SHOWN_PER_REGION} more removed lines …`);
        k = removed - half - 1;
      } else out.push(`-${r.removed.line(k)}`);
    }
    const added = r.added;
    for (let k = 0; k < added && r.at + k < total; k++) {
      if (added > SHOWN_PER_REGION && k === half) {
        const skipped = added - SHOWN_PER_REGION;
        out.push(
          `+… ${skipped} more added lines (lines ${r.at + half + 1}–${r.at + half + skipped}; read_file gives their anchors) …`,
        );
        k = added - half - 1;
      } else out.push(`+${anchor(r.at + k)}`);
    }
    for (let i = r.at + added; i < to; i++) out.push(` ${anchor(i)}`);
  }
  return out.join('\n');
}
