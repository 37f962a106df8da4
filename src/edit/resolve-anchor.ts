import type { ErrorCode } from '../contract/errors.js';
import { type LineSplice, mapThroughEdits } from './edit-map.js';
import { followLine } from './follow-line.js';
import { HashGroups } from './hash-groups.js';
import { parseAnchor } from './line-edit-ops.js';
import { contextHashesAt, hex, isLowEntropy } from './line-hash.js';
import type { LineTable } from './line-table.js';
import { readAnchors } from './read-anchors.js';

export class AnchorError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Hashes of a file's lines, computed once per edit call, kept as numbers (hex only for output). */
export class LineIndex {
  private hashes: Uint32Array | undefined;
  /** `known`, `knownShown`: the table's line hashes and shown anchors when already at hand (from a LineHashCache). */
  constructor(
    readonly table: LineTable,
    known?: Uint32Array,
    knownShown?: Uint32Array,
  ) {
    // A wrong-sized array cannot describe this text: ignore it and hash the text instead.
    if (known?.length === table.count) {
      this.hashes = known;
      if (knownShown?.length === table.count) this.shownAnchors = knownShown;
    }
  }
  get count(): number {
    return this.table.count;
  }
  line(i: number): string {
    return this.table.line(i);
  }
  /** 32-bit hashes of every line, computed once, on first use. */
  get full(): Uint32Array {
    this.hashes ??= this.table.hashes();
    return this.hashes;
  }
  /** The 6-char anchor hash of line i, as read_file shows it. */
  anchor(i: number): string {
    return hex(this.full[i]!, 6);
  }
  /** Lines whose hash starts with `prefix` (4-8 lowercase hex chars), compared as numbers. */
  candidates(prefix: string): number[] {
    this.byHash = this.grouped(this.byHash, this.full);
    return linesWithPrefix(this.full, prefix, this.byHash);
  }
  private byHash: HashGroups | number = 0;
  /**
   * `values` grouped for lookups once more than a few were made (each until then is a pass
   * over the lines, cheaper than grouping them): thousands of anchors in one call stay linear.
   */
  private grouped(groups: HashGroups | number, values: Uint32Array): HashGroups | number {
    if (typeof groups !== 'number') return groups;
    return groups < PASSES_BEFORE_GROUPING ? groups + 1 : new HashGroups(values);
  }
  /** Whether line i's hash starts with `prefix` (4-8 lowercase hex chars). */
  matchesAt(i: number, prefix: string): boolean {
    if (i < 0 || i >= this.count) return false;
    return this.full[i]! >>> (32 - 4 * prefix.length) === Number.parseInt(prefix, 16);
  }
  /** The anchors a hashed read of this text shows (unique in the file when possible; see readAnchors). */
  get shown(): Uint32Array {
    this.shownAnchors ??= readAnchors(this.full);
    return this.shownAnchors;
  }
  private shownAnchors: Uint32Array | undefined;
  /** Whether the anchor a read shows for line i starts with `prefix`. */
  shownMatchesAt(i: number, prefix: string): boolean {
    if (i < 0 || i >= this.count) return false;
    return this.shown[i]! >>> (32 - 4 * prefix.length) === Number.parseInt(prefix, 16);
  }
  /** Lines whose shown anchor starts with `prefix`. */
  shownLines(prefix: string): number[] {
    this.byShown = this.grouped(this.byShown, this.shown);
    return linesWithPrefix(this.shown, prefix, this.byShown);
  }
  private byShown: HashGroups | number = 0;
  contextMatches(hash: string, among?: readonly number[]): number[] {
    const pool = among ?? Array.from({ length: this.count }, (_, i) => i);
    const hashes = contextHashesAt(this.table, pool, hash.length);
    return pool.filter((_, k) => hashes[k]!.startsWith(hash));
  }
}

/** Lookups answered by a pass over the lines before the lines are grouped by hash. */
const PASSES_BEFORE_GROUPING = 8;

/** Lines whose value starts with the hex `prefix` (4-8 chars): through `groups` when built, else a pass. */
function linesWithPrefix(values: Uint32Array, prefix: string, groups: HashGroups | number): number[] {
  const shift = 32 - 4 * prefix.length;
  const wanted = Number.parseInt(prefix, 16);
  if (typeof groups !== 'number') {
    const lo = wanted * 2 ** shift;
    return groups.linesBetween(lo, lo + 2 ** shift - 1);
  }
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i]! >>> shift === wanted) out.push(i);
  return out;
}

export interface AnchorRequest {
  raw: string;
  occurrence?: number;
  line?: number;
  /** Range endpoints must be unique: no occurrence allowed. */
  endpoint?: boolean;
  /** The argument the anchor came from ("hash", "start_hash", "end_hash"), named in errors. */
  field?: string;
}

const preview = (index: LineIndex, i: number) => {
  const l = index.line(i);
  // The anchor a read shows (a twin's context or position anchor), as any other surface does.
  return `${i + 1}#${hex(index.shown[i]!, 6)}|${l.length > 80 ? `${l.slice(0, 80)}…` : l}`;
};

/** Good alternative anchors near a line: high-entropy lines whose hash is unique. */
export function neighbourAnchors(index: LineIndex, at: number, each = 3): string[] {
  const good = (i: number) => !isLowEntropy(index.line(i)) && index.candidates(index.anchor(i)).length === 1;
  const before: string[] = [];
  for (let i = at - 1; i >= 0 && before.length < each; i--)
    if (good(i)) before.unshift(`${i + 1}#${index.anchor(i)}`);
  const after: string[] = [];
  for (let i = at + 1; i < index.count && after.length < each; i++)
    if (good(i)) after.push(`${i + 1}#${index.anchor(i)}`);
  return [...before, ...after];
}

/**
 * What the model was shown of a file: the hashed read it holds (all of that version's
 * anchors: pages of one version show the same ones), and the anchors given since
 * (an `edit_lines` result's diff, pages of a later version), exactly as given, with
 * the version whose lines they name.
 */
export interface HeldAnchors {
  read: LineIndex;
  fresh?: { anchors: ReadonlySet<string>; version: LineIndex };
  /** The toolset's own edits from the read to `fresh.version`, when nothing else came between. */
  edits?: readonly (readonly LineSplice[])[];
}

const stale = (request: AnchorRequest, message: string) =>
  new AnchorError('anchor_stale', message, { suggested_action: 're-read_file', anchor: request.raw });

/** Line `at` of the read, followed into the file (see followLine); refused when it is gone or unsure. */
function followed(read: LineIndex, index: LineIndex, at: number, request: AnchorRequest): number | undefined {
  const mapped = followLine(read, index, at);
  if (mapped === 'changed' || mapped === 'unsure') {
    throw stale(
      request,
      mapped === 'changed'
        ? `Anchor ${request.raw}: line ${at + 1} as you read it was changed or deleted since. Re-read with read_file(hashes: true) and redo the edit.`
        : `Anchor ${request.raw}: line ${at + 1} as you read it repeats elsewhere and the lines around it changed since, so it can no longer be told apart from its twins. Re-read with read_file(hashes: true) and redo the edit.`,
    );
  }
  return mapped;
}

/**
 * Line `at` of `version` (the read, or the version fresh anchors name lines of), in the
 * file now: itself while the file is that version, else followed through a diff of the
 * two. Undefined when a line unique in that version cannot be followed (its own hash
 * may still name it); a twin that cannot be followed is refused.
 */
function lineNow(
  version: LineIndex,
  index: LineIndex,
  at: number,
  hint: number | undefined,
  request: AnchorRequest,
): number | undefined {
  if (version === index) return at;
  const mapped = followed(version, index, at, request);
  if (mapped !== undefined) return checkEntropy(index, mapped, hint, request);
  if (version.shown[at] !== version.full[at])
    throw stale(
      request,
      `Anchor ${request.raw}: the file changed too much since your read to follow line ${at + 1}, a line that repeats in it. Re-read with read_file(hashes: true) and redo the edit.`,
    );
  return undefined;
}

/**
 * Line `at` of the held read in the file now: carried exactly through the toolset's
 * own edits since (refused when one of them replaced it), then followed from the
 * last result as lineNow does; without such a record, followed from the read.
 */
function readLineNow(
  held: HeldAnchors,
  index: LineIndex,
  at: number,
  hint: number | undefined,
  request: AnchorRequest,
): number | undefined {
  if (!held.edits || !held.fresh) return lineNow(held.read, index, at, hint, request);
  const mapped = mapThroughEdits(at, held.edits);
  if (mapped === undefined)
    throw stale(
      request,
      `Anchor ${request.raw}: line ${at + 1} as you read it was replaced by one of your edit_lines calls since. Use the anchors of that call's result, or re-read with read_file(hashes: true).`,
    );
  return held.fresh.version === index
    ? mapped
    : lineNow(held.fresh.version, index, mapped, mapped + 1, request);
}

/**
 * The line of the read that showed this anchor: the one line whose shown anchor starts
 * with it, or, when several do (a short prefix; 24 bits nearly full), the one the line
 * number or occurrence names. A short prefix must agree with the number given with it.
 */
function shownLine(
  read: LineIndex,
  current: LineIndex,
  hash: string,
  request: AnchorRequest,
  hint: number | undefined,
) {
  const lines = read.shownLines(hash);
  if (request.occurrence !== undefined) return lines[request.occurrence - 1];
  if (hint !== undefined && lines.includes(hint - 1)) return hint - 1;
  if (lines.length !== 1) return undefined;
  const at = lines[0]!;
  if (hint === undefined || hint === at + 1) return at;
  // Another number: a slip, taken as such in the file as read (where this anchor names one
  // line). Once the file changed, only for a line's own hash (one line has that text): a
  // twin's context or position anchor can name another line in another version, and never
  // for a short prefix.
  if (hash.length < 6) return undefined;
  return read === current || read.shown[at] === read.full[at] ? at : undefined;
}

/**
 * Resolves an anchor against what the model was shown. Taken as given: an anchor
 * exactly as the last result or latest page gave it names that line; one the read
 * showed names the read's line (another number with it is a slip; see shownLine),
 * carried through the toolset's own edits since. Either is followed into the file when
 * something else changed it (gone or edited: anchor_stale, never a twin). An
 * `occurrence` counts the read's lines with that own hash. Any other anchor comes from
 * a read no longer held: only a hash one line has now (its own) names a line; else it
 * is refused.
 */
function resolveHeld(
  index: LineIndex,
  request: AnchorRequest,
  held: HeldAnchors,
  hash: string,
  hint: number | undefined,
  fromAnchor: number | undefined,
): number {
  const { read, fresh } = held;
  if (fresh && fromAnchor !== undefined && fresh.anchors.has(`${fromAnchor}#${hash}`)) {
    const at = lineNow(fresh.version, index, fromAnchor - 1, fromAnchor, request);
    if (at !== undefined) return at;
  }
  const shown = shownLine(read, index, hash, request, hint);
  if (shown !== undefined) {
    const at = readLineNow(held, index, shown, hint, request);
    if (at !== undefined) return at;
  } else if (request.occurrence !== undefined) {
    // The read's lines with this own hash, counted as the model counted them.
    const own = read.candidates(hash);
    const at = own[request.occurrence - 1];
    if (at === undefined) {
      throw new AnchorError(
        'anchor_ambiguous',
        `Anchor ${request.raw} has only ${own.length} matches; occurrence ${request.occurrence} does not exist.`,
        { candidates: own.slice(0, 10).map((c) => preview(read, c)) },
      );
    }
    if (read === index && hint === at + 1) return at;
    const now = readLineNow(held, index, at, hint, request);
    if (now !== undefined) return checkEntropy(index, now, hint, request, true);
  }
  const now = index.candidates(hash);
  const one = now.length === 1 ? now[0]! : -1;
  // A hash one line has now, as its own (no other line shares its six digits), and no two
  // lines had in the read: that content's line, wherever it is.
  if (
    one !== -1 &&
    index.shown[one] === index.full[one] &&
    (hash.length >= 6 || hint === one + 1) &&
    read.candidates(hash).length <= 1
  )
    return checkEntropy(index, one, hint, request);
  // The candidates are listed by this file's anchors: only while it is the read the model
  // holds can they not be mistaken for the read's (the same string can name another line there).
  if (now.length > 1 && read === index) throw ambiguous(index, request, now);
  throw stale(
    request,
    `Anchor ${request.raw} is not one your latest hashed read or your last edit_lines result gave${one !== -1 ? ` (another line shares line ${one + 1}'s hash now, so reads show it as ${one + 1}#${hex(index.shown[one]!, 6)})` : ''}: it is from an earlier read, and the line it named cannot be told now. Re-read with read_file(hashes: true) and use the new anchors.`,
  );
}

/** The refusal of an anchor several lines match. */
function ambiguous(index: LineIndex, request: AnchorRequest, candidates: readonly number[]) {
  // Range endpoints get no occurrence: still ambiguous after every rung of the ladder (context included).
  const code = request.endpoint ? 'anchor_context_ambiguous' : 'anchor_ambiguous';
  return new AnchorError(
    code,
    `${request.field ?? 'Anchor'} ${request.raw} matches ${candidates.length} lines (${candidates
      .slice(0, 8)
      .map((c) => c + 1)
      .join(
        ', ',
      )}). ${request.endpoint ? 'Range endpoints must be unique: pick distinctive boundary lines.' : 'Use the anchor your read shows for the line (listed below), add occurrence (1-based) together with line, or anchor on a more distinctive line.'}`,
    {
      ...(request.field ? { anchor_field: request.field } : {}),
      anchor: request.raw,
      candidates: candidates.slice(0, 10).map((c) => preview(index, c)),
    },
  );
}

/**
 * Resolves one anchor to a 0-based line of the CURRENT file. With a hashed read held
 * (`held`), against what the model was shown (see resolveHeld). Without one, the
 * ladder: the hash prefix (6 or 8 chars) of the lines' own hashes, then the context
 * hash (previous and next non-empty lines); a line found away from its number is
 * refused, as nothing confirms it is the same line.
 */
export function resolveAnchor(
  index: LineIndex,
  request: AnchorRequest,
  held: HeldAnchors | undefined,
): number {
  const { hash, line: lineFromAnchor } = parseAnchor(request.raw);
  const hint = request.line ?? lineFromAnchor;
  if (!/^[0-9a-f]{4,8}$/.test(hash)) {
    throw new AnchorError(
      'invalid_argument',
      `"${request.raw}" is not a line anchor; use the LINE#HASH shown by read_file(hashes: true).`,
    );
  }
  if (held) return resolveHeld(index, request, held, hash, hint, lineFromAnchor);
  const candidates = index.candidates(hash);
  // No read held here (e.g. the file was read by another path spelling): an anchor this file
  // shows names its line, whatever number came with it (a twin's is bound to this version).
  if (hash.length >= 6 && (request.occurrence ?? 1) === 1) {
    const shown = index.shownLines(hash);
    if (shown.length === 1) return checkEntropy(index, shown[0]!, shown[0]! + 1, request);
  }
  if (candidates.length === 0) {
    const byContext = index.contextMatches(hash);
    if (byContext.length === 1) return byContext[0]!;
    throw stale(
      request,
      `Anchor ${request.raw} no longer exists in the file: it changed since you read it. Re-read it with read_file(hashes: true) and redo the edit.`,
    );
  }
  if (candidates.length === 1 && hint !== undefined && candidates[0] !== hint - 1) {
    throw new AnchorError(
      'anchor_stale',
      `Anchor ${request.raw} is now at line ${candidates[0]! + 1}, not ${hint}, and there is no read of this file to confirm it is the same line. Re-read with read_file(hashes: true).`,
      { suggested_action: 're-read_file' },
    );
  }
  if (candidates.length === 1) return checkEntropy(index, candidates[0]!, hint, request);
  if (request.occurrence !== undefined && !request.endpoint) {
    const chosen = candidates[request.occurrence - 1];
    if (chosen === undefined) {
      throw new AnchorError(
        'anchor_ambiguous',
        `Anchor ${request.raw} has only ${candidates.length} matches; occurrence ${request.occurrence} does not exist.`,
        { candidates: candidates.map((c) => preview(index, c)) },
      );
    }
    return checkEntropy(index, chosen, hint, request, true);
  }
  throw ambiguous(index, request, candidates);
}

/** Low-entropy targets ("}", blank) are accepted only when unique and confirmed by the exact line hint. */
function checkEntropy(
  index: LineIndex,
  at: number,
  hint: number | undefined,
  request: AnchorRequest,
  viaOccurrence = false,
): number {
  const line = index.line(at);
  if (!isLowEntropy(line)) return at;
  const unique = index.candidates(index.anchor(at)).length === 1;
  if (unique && hint === at + 1 && !viaOccurrence) return at;
  throw new AnchorError(
    'anchor_low_entropy',
    `Anchor ${request.raw} points at line ${at + 1} ("${line.trim() || '(blank)'}"), which is too generic to be a safe anchor. Use a distinctive neighbouring line instead (e.g. ${neighbourAnchors(index, at).slice(0, 2).join(' or ') || 'a replace_range around it'}).`,
    { line: at + 1, content: line, neighbor_anchors: neighbourAnchors(index, at) },
  );
}

/** What to report when the line numbers given with an anchor all name another line than `at`. */
export function lineCorrection(request: AnchorRequest, at: number): string | undefined {
  const given = [parseAnchor(request.raw).line, request.line].filter((l): l is number => l !== undefined);
  if (given.length === 0 || given.includes(at + 1)) return undefined;
  const line = request.line !== undefined ? ` (line ${request.line})` : '';
  return `${request.field ?? 'hash'} ${request.raw}${line}: the hash is at line ${at + 1}, so that line was used.`;
}
