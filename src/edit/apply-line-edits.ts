import type { ErrorCode } from '../sandbox/errors.js';
import type { LineEditOp } from './line-edit-ops.js';
import { lineHash } from './line-hash.js';
import { AnchorError, LineIndex, resolveAnchor } from './resolve-anchor.js';
import { type EditedRegion, sanityWarnings } from './sanity-check.js';
import { detectTextFormat, joinLines, splitLines, withoutBom } from './text-format.js';

export type SanityMode = 'reject' | 'warn' | 'off';

/** A mistake in the request that was safe to fix (hash-anchored seed). */
export interface AutoCorrection {
  type: 'range_order_swapped';
  detail: string;
  /** 1-based index of the operation concerned. */
  operation: number;
}

export type LineEditsResult =
  | {
      ok: true;
      newText: string;
      opsApplied: number;
      linesBefore: number;
      linesAfter: number;
      anchorsValidThrough: number;
      mustRefreshFromLine: number;
      diff: string;
      autoCorrections: AutoCorrection[];
      warnings: string[];
    }
  | { ok: false; code: ErrorCode; message: string; details?: Record<string, unknown> };

/** A resolved operation: replace lines [start, end) of the snapshot with `lines`. */
interface Splice {
  op: number;
  start: number;
  end: number;
  lines: string[];
}

function contentLines(content: string): string[] {
  const lines = content.replaceAll('\r\n', '\n').split('\n');
  return lines.length > 1 && lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}

function resolveOp(
  op: LineEditOp,
  n: number,
  index: LineIndex,
  snapshot: LineIndex | undefined,
  fixes: AutoCorrection[],
): Splice {
  if (op.op === 'replace_range' || op.op === 'delete_range') {
    let start = resolveAnchor(
      index,
      { raw: op.start_hash, endpoint: true, field: 'start_hash', ...(op.line ? { line: op.line } : {}) },
      snapshot,
    );
    let end = resolveAnchor(index, { raw: op.end_hash, endpoint: true, field: 'end_hash' }, snapshot);
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
    return { op: n, start, end: end + 1, lines: op.op === 'replace_range' ? contentLines(op.content) : [] };
  }
  const at = resolveAnchor(
    index,
    {
      raw: op.hash,
      field: 'hash',
      ...(op.occurrence ? { occurrence: op.occurrence } : {}),
      ...(op.line ? { line: op.line } : {}),
    },
    snapshot,
  );
  switch (op.op) {
    case 'replace_line':
      return { op: n, start: at, end: at + 1, lines: contentLines(op.content) };
    case 'delete_line':
      return { op: n, start: at, end: at + 1, lines: [] };
    case 'insert_after':
      return { op: n, start: at + 1, end: at + 1, lines: contentLines(op.content) };
    case 'insert_before':
      return { op: n, start: at, end: at, lines: contentLines(op.content) };
  }
}

/**
 * edit_lines' core: resolves every operation against ONE snapshot, refuses the
 * whole batch on any bad or overlapping operation, applies bottom-up, and runs
 * sanity checks before anything is returned (so nothing bad is ever written).
 */
export function applyLineEdits(
  text: string,
  ops: readonly LineEditOp[],
  options: { sanity?: SanityMode; snapshot?: string } = {},
): LineEditsResult {
  const { body, restore } = withoutBom(text);
  const format = detectTextFormat(body);
  const split = splitLines(body);
  const index = new LineIndex(split.lines);
  const snapshot =
    options.snapshot === undefined
      ? undefined
      : new LineIndex(splitLines(withoutBom(options.snapshot).body).lines);
  const fixes: AutoCorrection[] = [];
  let splices: Splice[];
  try {
    splices = ops.map((op, n) => resolveOp(op, n, index, snapshot, fixes));
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
  const linesBefore = split.lines.length;
  const regions: EditedRegion[] = [];
  let shift = 0;
  for (const s of sorted) {
    regions.push({ removed: split.lines.slice(s.start, s.end), added: s.lines, at: s.start + shift });
    shift += s.lines.length - (s.end - s.start);
  }
  for (const s of [...sorted].reverse()) {
    const atEnd = s.end === split.lines.length && s.end > s.start;
    const tail = atEnd ? split.terminators[s.end - 1]! : format.eol;
    const terms = s.lines.map((_, i) => (i === s.lines.length - 1 ? tail : format.eol));
    if (
      s.start === s.end &&
      s.start === split.lines.length &&
      s.start > 0 &&
      split.terminators[s.start - 1] === ''
    ) {
      split.terminators[s.start - 1] = format.eol;
      if (terms.length) terms[terms.length - 1] = '';
    }
    split.lines.splice(s.start, s.end - s.start, ...s.lines);
    split.terminators.splice(s.start, s.end - s.start, ...terms);
  }
  const warnings = options.sanity === 'off' ? [] : sanityWarnings(split.lines, regions);
  if (warnings.length > 0 && (options.sanity ?? 'reject') === 'reject') {
    return {
      ok: false,
      code: 'safety_check_failed',
      message: `The edit looks wrong, so it was rolled back (nothing was written): ${warnings.join(' ')} If it is intended, retry with sanity: "warn".`,
      details: { safety_warnings: warnings },
    };
  }
  const first = sorted[0]!.start;
  return {
    ok: true,
    newText: restore(joinLines(split)),
    opsApplied: ops.length,
    linesBefore,
    linesAfter: split.lines.length,
    anchorsValidThrough: first,
    mustRefreshFromLine: first + 1,
    diff: anchoredDiff(split.lines, regions),
    autoCorrections: fixes,
    warnings,
  };
}

/** A compact diff whose context and added lines carry fresh anchors. */
function anchoredDiff(lines: readonly string[], regions: readonly EditedRegion[]): string {
  const out: string[] = [];
  const anchor = (i: number) => `${i + 1}#${lineHash(lines[i]!)}|${lines[i]}`;
  for (const r of regions) {
    const from = Math.max(0, r.at - 2);
    const to = Math.min(lines.length, r.at + r.added.length + 2);
    out.push(`@@ line ${r.at + 1} @@`);
    for (let i = from; i < r.at; i++) out.push(` ${anchor(i)}`);
    for (const l of r.removed) out.push(`-${l}`);
    for (let i = r.at; i < r.at + r.added.length; i++) out.push(`+${anchor(i)}`);
    for (let i = r.at + r.added.length; i < to; i++) out.push(` ${anchor(i)}`);
  }
  return out.join('\n');
}
