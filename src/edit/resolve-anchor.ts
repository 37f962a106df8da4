import type { ErrorCode } from '../contract/errors.js';
import { type LineSplice, mapThroughEdits } from './edit-map.js';
import { followLine } from './follow-line.js';
import type { Given, GivenAnchors, GoneReason } from './given-anchors.js';
import { HashGroups } from './hash-groups.js';
import { parseAnchor } from './line-edit-ops.js';
import { hex, isLowEntropy, sameLineText } from './line-hash.js';
import { LineTable } from './line-table.js';
import { readAnchors } from './read-anchors.js';
import { withoutBom } from './text-format.js';

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
  /** A version of a file (BOM and all), indexed as edit_lines indexes it. */
  static of(text: string): LineIndex {
    return new LineIndex(new LineTable(withoutBom(text).body));
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
 * (edit_lines results, pages of later versions), each with the line it was given for
 * in `given.version`, the latest version the toolset knows.
 */
export interface HeldAnchors {
  read: LineIndex;
  given?: { anchors: GivenAnchors; version: LineIndex };
  /**
   * The toolset's own edits from the read (or from `via.to`) to `given.version`, when
   * nothing else came between.
   */
  edits?: readonly (readonly LineSplice[])[];
  /** The changes made elsewhere that the toolset saw since the read, oldest first (see ChangeSeen). */
  via?: readonly ChangeSeen[];
  /** More such changes than are kept: the read's lines can no longer be followed. */
  lost?: boolean;
  /** The latest version the toolset knows was met by a load, not shown to the model. */
  unshown?: boolean;
}

/**
 * A change to the file made elsewhere that the toolset saw (a page or an edit_lines call
 * met a version it had not made): the version before it (`from`, reached from the
 * previous step by the toolset's own `edits`) and after it (`to`).
 */
export interface ChangeSeen {
  from: LineIndex;
  to: LineIndex;
  edits: readonly (readonly LineSplice[])[];
}

const stale = (request: AnchorRequest, message: string) =>
  new AnchorError('anchor_stale', message, { suggested_action: 're-read_file', anchor: request.raw });

const RE_READ = 'Re-read with read_file(hashes: true) and redo the edit.';

/**
 * Line `at` of `version` followed into the file now (see followLine), and only to a
 * line with the same text: the line, or anchor_stale when it is gone or unsure.
 */
function followed(version: LineIndex, index: LineIndex, at: number, request: AnchorRequest): number {
  if (version === index) return at;
  const mapped = followLine(version, index, at);
  if (typeof mapped === 'number' && sameLineText(version.line(at), index.line(mapped))) return mapped;
  throw stale(request, goneMessage(request, at, mapped === 'unsure' ? 'unsure' : 'changed'));
}

function goneMessage(request: AnchorRequest, at: number, reason: GoneReason | undefined): string {
  switch (reason) {
    case 'replaced':
      return `Anchor ${request.raw}: line ${at + 1} as you were shown it was replaced by one of your own edits since. Use the anchors an edit_lines result gave for it, or re-read with read_file(hashes: true).`;
    case 'unsure':
      return `Anchor ${request.raw}: line ${at + 1} as you were shown it repeats elsewhere and the lines around it changed since, so it can no longer be told apart from its twins. ${RE_READ}`;
    default:
      return `Anchor ${request.raw}: line ${at + 1} as you were shown it was changed or deleted since. ${RE_READ}`;
  }
}

/**
 * A line of `version` (the read, the read carried through the toolset's edits, or a
 * given anchor's) in the file now; a blank or brace line another change moved away
 * from `hint` is refused (see checkEntropy).
 */
function lineNow(
  version: LineIndex,
  index: LineIndex,
  at: number,
  hint: number | undefined,
  request: AnchorRequest,
): number {
  if (version === index) return at;
  return checkEntropy(index, followed(version, index, at, request), hint, request);
}

/**
 * Line `at` of the held read in the file now: carried exactly through the toolset's
 * own edits since (refused when one of them replaced it), through each change made
 * elsewhere the toolset saw in between (`via`: followed by a diff of the two versions
 * it saw, so a line such a change deleted stays deleted whatever comes back later), then
 * followed from the latest version the toolset knows; without such a record, followed
 * from the read.
 */
function readLineNow(
  held: HeldAnchors,
  index: LineIndex,
  at: number,
  hint: number | undefined,
  request: AnchorRequest,
): number {
  if (held.lost)
    throw stale(
      request,
      `Anchor ${request.raw}: the file was changed elsewhere too many times since your hashed read to follow line ${at + 1}. ${RE_READ}`,
    );
  if (!held.edits || !held.given) return lineNow(held.read, index, at, hint, request);
  // The file is byte for byte the read again (the changes since undone): a line every change
  // since kept (a line one deleted stays deleted) and that is back where it was read is that
  // line, blank or brace: nothing is guessed about which copy it is.
  const asRead = sameText(held.read, index);
  let line = at;
  for (const step of held.via ?? []) {
    const before = mapThroughEdits(line, step.edits);
    if (before === undefined) throw stale(request, goneMessage(request, at, 'replaced'));
    line = followed(step.from, step.to, before, request);
    if (line !== before && !asRead) checkEntropy(step.to, line, before + 1, request);
  }
  const mapped = mapThroughEdits(line, held.edits);
  if (mapped === undefined) throw stale(request, goneMessage(request, at, 'replaced'));
  if (asRead) {
    if (followed(held.given.version, index, mapped, request) === at) return at;
    throw stale(request, goneMessage(request, at, 'unsure'));
  }
  const now = lineNow(held.given.version, index, mapped, mapped + 1, request);
  // Diffs through changes seen can pair copies of a line one way, a diff from the read
  // another (copies made elsewhere leave identity open): followed only where both agree.
  if (held.via?.length && followLine(held.read, index, at) !== now)
    throw stale(request, goneMessage(request, at, 'unsure'));
  return now;
}

/**
 * The line of the read that showed this anchor: the one line whose shown anchor starts
 * with it, or, when several do (a short prefix; 24 bits nearly full), the one the line
 * number or occurrence names. A short prefix must agree with the number given with it.
 */
function shownLine(read: LineIndex, hash: string, request: AnchorRequest, hint: number | undefined) {
  const lines = read.shownLines(hash);
  if (request.occurrence !== undefined) return lines[request.occurrence - 1];
  if (hint !== undefined && lines.includes(hint - 1)) return hint - 1;
  if (lines.length !== 1) return undefined;
  const at = lines[0]!;
  if (hint === undefined || hint === at + 1) return at;
  // Another number: a slip (or the line's number now), taken as such when the read showed this
  // anchor for one line, never for a short prefix. A twin's context or position anchor mixes in
  // a hash of the whole file read, so another version's anchors do not repeat it: it names this
  // read's line, which is then followed into the file as any other.
  if (hash.length < 6) return undefined;
  return at;
}

/**
 * Resolves an anchor against what the model was shown, and only so. In order:
 * - an anchor given since the read (a result, a later page) names the line it was given for;
 * - one the read showed at that number names the read's line, carried through the toolset's
 *   own edits since;
 * - one given before the read (kept across a whole re-read) names its line: a line since
 *   gone is refused rather than taken for a copy the re-read shows elsewhere;
 * - a number that does not go with the hash is a slip when one surface shows the hash (see
 *   shownLine; given anchors: when the read does not show it);
 * - an anchor the file shows now at exactly that number (a neighbour an error suggested).
 * A line is followed into the file when something else changed it (gone, edited or
 * unsure: anchor_stale, never another line with the same text). An `occurrence` counts
 * the read's lines with that own hash. Anything else is refused, never looked up by its text.
 */
function resolveHeld(
  index: LineIndex,
  request: AnchorRequest,
  held: HeldAnchors,
  hash: string,
  hint: number | undefined,
  fromAnchor: number | undefined,
): number {
  const { read, given } = held;
  const number = fromAnchor ?? request.line;
  const bare = request.occurrence === undefined;
  const was = given && number !== undefined ? given.anchors.lookup(number, hash) : undefined;
  const readAt = number !== undefined && bare && read.shownMatchesAt(number - 1, hash) ? number - 1 : -1;
  // A short prefix two surfaces showed at one number names nothing for sure.
  if (was === 'ambiguous' || (was !== undefined && readAt !== -1 && hash.length < 6))
    throw stale(
      request,
      `Anchor ${request.raw} matches anchors shown for different lines at line ${number}; pass the whole six-digit anchor.`,
    );
  if (was !== undefined && !was.older) return givenLineNow(held, index, was, request);
  if (readAt !== -1) return readLineNow(held, index, readAt, hint, request);
  if (was !== undefined) return givenLineNow(held, index, was, request);
  // A bare hash the read showed too (for a line since replaced or not) could mean either line.
  const readShows = number === undefined ? read.shownLines(hash).length > 0 : readHasLine(held, hash);
  if (given && bare && hash.length >= 6 && !readShows) {
    // Given with another number (a slip), or a bare hash: the one line given with it.
    // Lines given with it since the read, gone ones included: the model may mean any of them.
    const all = given.anchors.withHash(hash).filter((g) => !g.older);
    const live = all.filter((g) => typeof g.at === 'number');
    if (live.length > 0 && all.every((g) => g.at === live[0]!.at))
      return givenLineNow(held, index, live[0]!, request);
    if (all.length > 1)
      throw stale(
        request,
        `Anchor ${request.raw}: that hash was shown for several lines; pass the whole LINE#HASH.`,
      );
  }
  const shown = shownLine(read, hash, request, hint);
  if (shown !== undefined) return readLineNow(held, index, shown, hint, request);
  if (request.occurrence !== undefined) {
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
    return checkEntropy(index, readLineNow(held, index, at, hint, request), hint, request, true);
  }
  // Shown by the file as it is now, at exactly this number (an error's suggested neighbour),
  // while nothing but the toolset's own edit_lines calls changed it since it last showed it:
  // after any other change the anchor could be a forgotten one for a line since replaced.
  const latest = held.given?.version ?? read;
  if (
    fromAnchor !== undefined &&
    hash.length >= 6 &&
    latest === index &&
    !held.unshown &&
    (read === index || held.edits !== undefined) &&
    index.shownMatchesAt(fromAnchor - 1, hash)
  )
    return fromAnchor - 1;
  const now = index.candidates(hash);
  // The candidates are listed by this file's anchors: only while it is the read the model
  // holds can they not be mistaken for the read's (the same string can name another line there).
  if (now.length > 1 && read === index) throw ambiguous(index, request, now);
  const one = now.length === 1 ? now[0]! : -1;
  throw stale(
    request,
    `Anchor ${request.raw} is not one your latest hashed read or your edit_lines results since gave${one !== -1 ? ` (a line with that hash is at line ${one + 1} now, shown as ${one + 1}#${hex(index.shown[one]!, 6)}, but nothing shows it is the line you mean)` : ''}: it is from an earlier read, and the line it named cannot be told now. Re-read with read_file(hashes: true) and use the new anchors.`,
  );
}

/** Whether the read showed `hash` for a line that none of the toolset's own edits since replaced. */
function readHasLine(held: HeldAnchors, hash: string): boolean {
  const lines = held.read.shownLines(hash);
  if (lines.length !== 1 || !held.edits) return lines.length > 0;
  return mapThroughEdits(lines[0]!, held.edits) !== undefined;
}

/** The line an anchor was given for, in the file now; refused when it is gone. */
function givenLineNow(held: HeldAnchors, index: LineIndex, was: Given, request: AnchorRequest) {
  const shownAt = Number(was.anchor.slice(0, was.anchor.indexOf('#'))) - 1;
  if (typeof was.at !== 'number') throw stale(request, goneMessage(request, shownAt, was.at));
  return lineNow(held.given!.version, index, was.at, was.at + 1, request);
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
 * (`held`), against what the model was shown (see resolveHeld); without one, see
 * resolveUnheld.
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
  return resolveUnheld(index, request, hash, hint);
}

/**
 * No hashed read of this file is held (it was read under another name: a link, before
 * a move, by another toolset). Nothing says which line the model was shown, so an
 * anchor names a line only at its own number: the anchor this file's reads show there,
 * or that line's own hash when no other line has it (with `occurrence`, the one it
 * counts). A line found with that hash elsewhere is refused (a copy of the line, or the
 * line moved: nothing tells which), and so is a twin's own hash without `occurrence`.
 */
function resolveUnheld(
  index: LineIndex,
  request: AnchorRequest,
  hash: string,
  hint: number | undefined,
): number {
  const candidates = index.candidates(hash);
  if (hint === undefined) {
    // A bare hash: the one line a read of this version shows it for, or the one line with it.
    const shown = hash.length >= 6 && request.occurrence === undefined ? index.shownLines(hash) : [];
    if (shown.length === 1) return checkEntropy(index, shown[0]!, shown[0]! + 1, request);
    if (candidates.length === 1) return checkEntropy(index, candidates[0]!, undefined, request);
    if (candidates.length > 1 && request.occurrence !== undefined && !request.endpoint)
      return occurrenceOf(index, request, candidates, undefined);
    if (candidates.length > 1) throw ambiguous(index, request, candidates);
    throw stale(request, `Anchor ${request.raw} no longer exists in the file. ${RE_READ}`);
  }
  const at = hint - 1;
  // A twin's anchor is bound to this version and line, a unique line's is its own hash.
  if (index.shownMatchesAt(at, hash) && request.occurrence === undefined) return at;
  if (index.matchesAt(at, hash)) {
    if (candidates.length === 1) return checkEntropy(index, at, hint, request);
    if (request.occurrence !== undefined && !request.endpoint) {
      const chosen = occurrenceOf(index, request, candidates, hint);
      if (chosen === at) return chosen;
    } else throw ambiguous(index, request, candidates);
  }
  const other = candidates.find((i) => i !== at) ?? index.shownLines(hash).find((i) => i !== at);
  throw new AnchorError(
    'anchor_stale',
    other === undefined
      ? `Anchor ${request.raw} no longer exists in the file: line ${hint} has other content now. ${RE_READ}`
      : `Anchor ${request.raw}: line ${hint} has other content now, and a line with that hash is at line ${other + 1}, but no hashed read of the file under this path confirms it is the line you mean. ${RE_READ}`,
    { suggested_action: 're-read_file', anchor: request.raw },
  );
}

/** The candidate `occurrence` counts (1-based); anchor_ambiguous when there are fewer. */
function occurrenceOf(
  index: LineIndex,
  request: AnchorRequest,
  candidates: readonly number[],
  hint: number | undefined,
): number {
  const chosen = candidates[request.occurrence! - 1];
  if (chosen === undefined) {
    throw new AnchorError(
      'anchor_ambiguous',
      `Anchor ${request.raw} has only ${candidates.length} matches; occurrence ${request.occurrence} does not exist.`,
      { candidates: candidates.map((c) => preview(index, c)) },
    );
  }
  return checkEntropy(index, chosen, hint, request, true);
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

/** Whether two versions are the same text (a version met again after a change was undone). */
function sameText(a: LineIndex, b: LineIndex): boolean {
  return a === b || (a.count === b.count && a.table.text === b.table.text);
}

/** What to report when the line numbers given with an anchor all name another line than `at`. */
export function lineCorrection(request: AnchorRequest, at: number): string | undefined {
  const given = [parseAnchor(request.raw).line, request.line].filter((l): l is number => l !== undefined);
  if (given.length === 0 || given.includes(at + 1)) return undefined;
  const line = request.line !== undefined ? ` (line ${request.line})` : '';
  return `${request.field ?? 'hash'} ${request.raw}${line}: the hash is at line ${at + 1}, so that line was used.`;
}
