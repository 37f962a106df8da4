import type { ErrorCode } from '../contract/errors.js';
import { followLine } from './follow-line.js';
import { HashGroups } from './hash-groups.js';
import { parseAnchor } from './line-edit-ops.js';
import { contextHash, contextHashesAt, hex, isLowEntropy } from './line-hash.js';
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
 * In a file still exactly as the hashed read returned it, the anchor names the
 * line the model was shown: a LINE#HASH (or `line`) whose line has that hash is
 * that line, whatever it holds (blank, "}", a duplicate); a hash held by one line
 * only is that line, whatever line number came with it. Undefined otherwise.
 */
function confirmedUnchanged(index: LineIndex, hash: string, request: AnchorRequest, fromAnchor?: number) {
  const numbers = [fromAnchor, request.line].filter((n): n is number => n !== undefined);
  const candidates = index.candidates(hash);
  for (const n of numbers) {
    // The number names the line the read showed with this anchor (a twin is shown by its
    // context or position anchor, not its own hash): that line, before any unique own-hash
    // match elsewhere, which a short prefix can hit by chance.
    if (index.shownMatchesAt(n - 1, hash)) {
      // Shown anchors are unique: an occurrence can only confirm the line, or contradict it.
      const shown = request.occurrence === undefined ? [] : index.shownLines(hash);
      if (request.occurrence === undefined || shown[request.occurrence - 1] === n - 1) return n - 1;
      continue;
    }
    if (!index.matchesAt(n - 1, hash)) continue;
    // An occurrence that names another line contradicts the number: left to the full ladder.
    if (request.occurrence !== undefined) {
      if (candidates[request.occurrence - 1] === n - 1) return n - 1;
      continue;
    }
    // The line's own hash, but reads show this line by another anchor (another line shares
    // its hash): no surface shows that anchor now, so it is from an older read, when the
    // line was unique, and which copy that line became cannot be told.
    if (index.shown[n - 1] !== index.full[n - 1])
      throw new AnchorError(
        'anchor_stale',
        `Anchor ${request.raw} is not one your latest read of the file gave: another line shares line ${n}'s hash now (a copy of it, or a chance match), so reads show it as ${n}#${hex(index.shown[n - 1]!, 6)}; ${request.raw} is from an earlier read, before that line appeared, and could name either. Use the anchors of your latest read, or re-read with read_file(hashes: true).`,
        { suggested_action: 're-read_file', anchor: request.raw },
      );
    return n - 1;
  }
  if (candidates.length === 1 && (request.occurrence ?? 1) === 1) return candidates[0];
  return undefined;
}

/** Line `at` of the read, followed into the file (see followLine); refused when it is gone or unsure. */
function followed(read: LineIndex, index: LineIndex, at: number, request: AnchorRequest): number | undefined {
  const mapped = followLine(read, index, at);
  if (mapped === 'changed' || mapped === 'unsure') {
    throw new AnchorError(
      'anchor_stale',
      mapped === 'changed'
        ? `Anchor ${request.raw}: line ${at + 1} as you read it was changed or deleted since. Re-read with read_file(hashes: true) and redo the edit.`
        : `Anchor ${request.raw}: line ${at + 1} as you read it repeats elsewhere and the lines around it changed since, so it can no longer be told apart from its twins. Re-read with read_file(hashes: true) and redo the edit.`,
      { suggested_action: 're-read_file', anchor: request.raw },
    );
  }
  return mapped;
}

/**
 * The line a read showed with this anchor, when exactly one line had it (or, when
 * several did, the one whose number came with it): reads
 * show twins (repeated lines) by their context or position anchor, unique in the
 * read, so a wrong line number next to it does not matter. In an unchanged file
 * that is the line; in a changed one it is followed through a line diff of the
 * read and the file (gone or edited: anchor_stale). Undefined when the anchor is
 * not (or not uniquely) one the read showed: the ladder decides.
 */
function shownInRead(
  index: LineIndex,
  hash: string,
  request: AnchorRequest,
  snapshot: LineIndex | undefined,
  hint: number | undefined,
): number | undefined {
  if (hash.length < 6 || (request.occurrence ?? 1) !== 1) return undefined;
  const read = snapshot ?? index;
  const lines = read.shownLines(hash);
  // Anchors a read shows are unique unless its 24-bit space is nearly full: then the
  // line number that came with the anchor tells apart the lines showing it.
  const at = lines.length === 1 ? lines[0]! : hint !== undefined && lines.includes(hint - 1) ? hint - 1 : -1;
  if (at === -1) return undefined;
  if (read === index) return snapshot ? at : checkEntropy(index, at, at + 1, request);
  const mapped = followed(read, index, at, request);
  if (mapped === undefined && read.shown[at] !== read.full[at]) {
    // The read showed this line by its context or position anchor (it has twins), and the
    // diff could not follow it: no own-hash lookup can tell which twin it was.
    throw new AnchorError(
      'anchor_stale',
      `Anchor ${request.raw}: the file changed too much since your read to follow line ${at + 1}, a line that repeats in it. Re-read with read_file(hashes: true) and redo the edit.`,
      { suggested_action: 're-read_file', anchor: request.raw },
    );
  }
  return mapped === undefined ? undefined : checkEntropy(index, mapped, hint, request);
}

/**
 * Resolves one anchor to a 0-based line of the CURRENT file. When the file is
 * unchanged since the hashed read (`snapshot` is `index`), the anchor is exact
 * (confirmedUnchanged). When it changed, the line the model read is followed
 * through a line diff of the read and the file (gone or edited → anchor_stale);
 * a moved low-entropy line must still be confirmed by its line number. Without a
 * read (or past the diff's time budget) the ladder: the hash prefix (6 or 8
 * chars), then the context hash (previous and next non-empty lines).
 */
export function resolveAnchor(
  index: LineIndex,
  request: AnchorRequest,
  snapshot: LineIndex | undefined,
): number {
  const { hash, line: lineFromAnchor } = parseAnchor(request.raw);
  const hint = request.line ?? lineFromAnchor;
  if (!/^[0-9a-f]{4,8}$/.test(hash)) {
    throw new AnchorError(
      'invalid_argument',
      `"${request.raw}" is not a line anchor; use the LINE#HASH shown by read_file(hashes: true).`,
    );
  }
  if (snapshot === index) {
    const exact = confirmedUnchanged(index, hash, request, lineFromAnchor);
    if (exact !== undefined) return exact;
  }
  const shown = shownInRead(index, hash, request, snapshot, hint);
  if (shown !== undefined) return shown;
  let candidates = index.candidates(hash);
  if (candidates.length === 0) {
    const byContext = index.contextMatches(hash);
    if (byContext.length === 1) return byContext[0]!;
    throw new AnchorError(
      'anchor_stale',
      `Anchor ${request.raw} no longer exists in the file: it changed since you read it. Re-read it with read_file(hashes: true) and redo the edit.`,
      { suggested_action: 're-read_file', anchor: request.raw },
    );
  }
  // What the anchored line looked like in context when the model read it.
  let readAt: number | undefined;
  if (snapshot) {
    const snap = snapshot.candidates(hash);
    readAt =
      hint !== undefined && snap.includes(hint - 1) ? hint - 1 : snap.length === 1 ? snap[0] : undefined;
  }
  if (readAt !== undefined && snapshot && snapshot !== index) {
    // The file changed since the read: follow the line through a diff of the two, never to a twin.
    const mapped = followed(snapshot, index, readAt, request);
    if (mapped !== undefined) return checkEntropy(index, mapped, hint, request);
  }
  if (readAt !== undefined && snapshot) {
    const expected = contextHash(snapshot.table, readAt, 8);
    const around = contextHashesAt(index.table, candidates, 8);
    const agreeing = candidates.filter((_, k) => around[k] === expected);
    if (agreeing.length === 1) return checkEntropy(index, agreeing[0]!, hint, request);
    if (agreeing.length === 0) {
      if (candidates.length === 1 && candidates[0] === readAt)
        return checkEntropy(index, readAt, hint, request);
      throw new AnchorError(
        'anchor_stale',
        `Anchor ${request.raw}: the line is still there but its surroundings changed since your read, so it may not be the line you meant. Re-read with read_file(hashes: true).`,
        {
          suggested_action: 're-read_file',
          candidates: candidates.slice(0, 5).map((c) => preview(index, c)),
        },
      );
    }
    candidates = agreeing;
  } else if (candidates.length === 1 && hint !== undefined && candidates[0] !== hint - 1 && !snapshot) {
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
        {
          candidates: candidates.map((c) => preview(index, c)),
        },
      );
    }
    return checkEntropy(index, chosen, hint, request, true);
  }
  // Range endpoints get no occurrence: still ambiguous after every rung of the ladder (context included).
  const code = request.endpoint || readAt !== undefined ? 'anchor_context_ambiguous' : 'anchor_ambiguous';
  throw new AnchorError(
    code,
    `${request.field ?? 'Anchor'} ${request.raw} matches ${candidates.length} lines (${candidates
      .slice(0, 8)
      .map((c) => c + 1)
      .join(
        ', ',
      )}). ${request.endpoint ? 'Range endpoints must be unique: pick distinctive boundary lines.' : 'Add occurrence (1-based) together with line, or anchor on a more distinctive line.'}`,
    {
      ...(request.field ? { anchor_field: request.field } : {}),
      anchor: request.raw,
      candidates: candidates.slice(0, 10).map((c) => preview(index, c)),
    },
  );
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
