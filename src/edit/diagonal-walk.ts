import type { LinesWithEnds } from './anchored-diff.js';
import { costBound } from './bounded-myers.js';
import { cheaperSync, type SyncSides } from './cheaper-sync.js';
import { commonLength } from './common-length.js';

/**
 * Both sides count as together again after a change when this many lines in a row are
 * equal and they hold at least SYNC_CHARS characters: in a file of `}` and blank
 * lines three equal lines happen anywhere by chance, 64 characters in a row do not.
 */
const SYNC = 3;
const SYNC_CHARS = 64;
/** Lines a sync check looks at, at most (a run of empty lines is one character each). */
const SYNC_MAX_LINES = 256;
/** A change this long (old + new lines) or shorter is found by trying every split of it. */
const NEAR = 64;
/** Periods (in lines) of repeating text whose syncs one period off are told apart. */
const PERIOD_MAX = 8;
/** An insertion or a deletion up to this long is found by scanning the other side. */
const FAR = 8192;
/** Search steps an unambiguous check costs, about (two sides × 2 NEAR shifts × its lines). */
const UNAMBIGUOUS_COST = 4 * NEAR * SYNC_CHARS;
/** Resync search steps per line of the texts (see DiagonalWalk.budget). */
const STEPS_PER_LINE = 4;
/**
 * A changed region ends at a sync followed by this many equal lines: a sync a period off
 * (text that repeats) is only as good as the right one until the next change, and with
 * changes this far apart the walk's cheapest sync is the right one.
 */
const SETTLED = 64;
/**
 * The exact diff's work (lines × changes, each region's changes counted up to its search
 * bound: see bounded-myers.ts) that regions joined across ambiguous syncs may hold, in one
 * walk. Past it a text with dense changes everywhere (a million lines of them) is cut at
 * every sync instead, as fast as the walk and near minimal still. A joined region is not
 * cut before: in repeating text the walk's position may have drifted from the right
 * alignment by then (a period off costs nothing until the next change), and a cut there
 * forces the diff through it.
 */
const MERGED_WORK = 2 ** 29;

/** The exact diff's work estimate for a region of `lines` lines (old + new) with `changes` changes. */
function mergedWork(lines: number, changes: number): number {
  return lines * Math.min(changes, costBound(lines + 3));
}

/**
 * The equal stretches of two texts that differ here and there (the usual edit of
 * a big file), found by walking both in step: the longest equal stretch from the
 * current lines is found by comparing the texts natively, a chunk at a time, and
 * cut back to whole lines, so equal lines cost no per-line work at all. After a
 * change the walk looks for the nearest point where both sides agree again (see
 * resync), first trying every split of a short change, then scanning for the end
 * of a long insertion or deletion. What lies between is a changed region, left to
 * an exact diff. Only an unambiguous sync ends a region: where the text repeats,
 * a sync a period off agrees as well, and cutting there would force the diff
 * through the wrong point, so the regions on both sides of it stay one (up to
 * MERGED_WORK in all, which bounds the exact diff's work). A
 * change the walk cannot see past ends the walk, and the rest is one region.
 */
export class DiagonalWalk {
  /** cheapest's furthest-reaching x per diagonal, reused (one resync per change). */
  private furthest: Int32Array | undefined;
  /**
   * Search steps the strict resyncs may still take in this walk (one that finds nothing
   * costs up to NEAR² + 2 × FAR): past it, where changes are dense, the walk resyncs on
   * SYNC equal lines only, whose search ends at the first it finds.
   */
  private budget: number;
  /** Work joined regions may still hold (see MERGED_WORK). */
  private mergeLeft = MERGED_WORK;

  constructor(
    private readonly a: LinesWithEnds,
    private readonly b: LinesWithEnds,
    private readonly a0: number,
    private readonly a1: number,
    private readonly b0: number,
    private readonly b1: number,
  ) {
    this.budget = 2 * FAR + STEPS_PER_LINE * (a1 - a0 + (b1 - b0));
  }

  /**
   * The changed regions [a0, a1, b0, b1], in order; `same(n)` is called with each
   * run of equal lines before the region after it (and after the last one).
   */
  *changed(same: (n: number) => void): Generator<[number, number, number, number]> {
    let i = this.a0;
    let j = this.b0;
    // Where the region under way began (regions joined across syncs that do not settle it),
    // and the syncs taken inside it.
    let open: [number, number] | undefined;
    let syncs = 0;
    for (;;) {
      const n = this.equalRun(i, j);
      // Only a stretch found nowhere else nearby pins the sides together: where the text
      // repeats, the walk's choice among syncs a period apart may be the wrong one even after
      // one change (the next change decides which was right).
      if (open && n >= SETTLED && (this.mergeLeft <= 0 || this.unambiguous(i, j, NEAR))) {
        yield this.close(open, i, j, syncs);
        open = undefined;
      }
      if (open === undefined) same(n);
      i += n;
      j += n;
      if (i === this.a1 || j === this.b1) break;
      if (open === undefined) {
        open = [i, j];
        syncs = 0;
      }
      const next = this.resync(i, j);
      if (next === undefined) break;
      syncs++;
      const [x, y, unambiguous] = next;
      const size = x - open[0] + (y - open[1]);
      if (unambiguous || mergedWork(size, syncs) >= this.mergeLeft) {
        yield this.close(open, x, y, syncs);
        open = undefined;
      }
      i = x;
      j = y;
    }
    const [i0, j0] = open ?? [i, j];
    if (i0 < this.a1 || j0 < this.b1) yield [i0, this.a1, j0, this.b1];
  }

  /** The region from `open` to a[i], b[j], counted against MERGED_WORK when it joins several. */
  private close(
    open: [number, number],
    i: number,
    j: number,
    syncs: number,
  ): [number, number, number, number] {
    if (syncs > 1) this.mergeLeft -= mergedWork(i - open[0] + (j - open[1]), syncs);
    return [open[0], i, open[1], j];
  }

  /** How many lines from a[i], b[j] on are equal (terminators included). */
  private equalRun(i: number, j: number): number {
    const A = this.a.starts;
    const B = this.b.starts;
    const from = A[i]!;
    const bFrom = B[j]!;
    const chars = commonLength(this.a.text, from, A[this.a1]!, this.b.text, bFrom, B[this.b1]!);
    // Lines of a that lie wholly in the equal stretch: the last line start at or before its end.
    let lo = i;
    let hi = this.a1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (A[mid]! - from <= chars) lo = mid;
      else hi = mid - 1;
    }
    let n = Math.min(lo - i, this.b1 - j);
    // Equal characters put newlines in the same places, but a last line without a newline
    // may end in a only: the line must end at the same place on both sides.
    while (n > 0 && B[j + n]! - bFrom !== A[i + n]! - from) n--;
    return n;
  }

  private equal(i: number, j: number): boolean {
    return sameLine(this.a, this.b, i, j);
  }

  /**
   * Whether both sides agree again from a[i], b[j]: SYNC equal lines (holding
   * SYNC_CHARS characters when `strict`), or equal lines up to both ends.
   */
  private synced(i: number, j: number, strict: boolean): boolean {
    const A = this.a.starts;
    for (let k = 0; k < SYNC_MAX_LINES; k++) {
      if (k >= SYNC && (!strict || A[i + k]! - A[i]! >= SYNC_CHARS)) return true;
      if (i + k === this.a1 || j + k === this.b1) return i + k === this.a1 && j + k === this.b1;
      if (!this.equal(i + k, j + k)) return false;
    }
    return false;
  }

  /**
   * The nearest point after a change at a[i0], b[j0] where both sides agree again, and
   * whether it ends the changed region whatever follows (the end of a long insertion or
   * deletion, unambiguous: see far); a sync nearby ends it when a long equal run follows
   * (see changed). Changes crowded closer than a strict sync can fit (a file of `}`
   * lines edited every few lines) are taken up again at the nearest SYNC equal lines,
   * inside one region.
   */
  private resync(i0: number, j0: number): [number, number, boolean] | undefined {
    const near = this.cheapest(i0, j0, NEAR, true);
    if (near) return [near[0], near[1], false];
    const far = this.far(i0, j0);
    if (far) return far;
    const weak = this.cheapest(i0, j0, NEAR, false);
    return weak && [weak[0], weak[1], false];
  }

  /**
   * The sync point (see synced) after a[i0], b[j0] on the cheapest way found: a Myers
   * search (equal lines cost nothing, each inserted or deleted line one, at most `reach`)
   * scoring each sync point by its edits plus the fewest the rest still needs (the gap
   * between its diagonal and the region end's). The first sync found ends the search,
   * unless the old lines there repeat with a short period: a sync one period off agrees
   * as well as the right one (ordered by lines skipped, the walk took it, and the diff
   * showed a period's lines added there and removed again further on), so a few more
   * edit counts are searched and the best score is taken.
   */
  private cheapest(i0: number, j0: number, reach: number, strict: boolean): [number, number] | undefined {
    const maxX = this.a1 - i0;
    const maxY = this.b1 - j0;
    const endDiagonal = maxX - maxY;
    // Furthest x on diagonal k = x - y, at index k + offset.
    const offset = reach + 1;
    this.furthest ??= new Int32Array(2 * reach + 3);
    const far = this.furthest;
    far.fill(-1, 0, 2 * reach + 3);
    far[offset + 1] = 0;
    let best: { x: number; y: number; score: number } | undefined;
    let last = reach;
    for (let d = 0; d <= last && (best === undefined || d < best.score); d++) {
      if (strict) {
        this.budget -= d + 1;
        if (this.budget < 0) return undefined;
      }
      for (let k = -d; k <= d; k += 2) {
        const down = k === -d || (k !== d && far[offset + k - 1]! < far[offset + k + 1]!);
        const x = down ? far[offset + k + 1]! : far[offset + k - 1]! + 1;
        const y = x - k;
        const inside = x >= 0 && x <= maxX && y >= 0 && y <= maxY;
        far[offset + k] = inside ? x : -1; // off the region: no path on this diagonal
        if (!inside || d === 0) continue;
        const score = d + Math.abs(endDiagonal - k);
        if ((best === undefined || score < best.score) && this.synced(i0 + x, j0 + y, strict))
          best = { x, y, score };
      }
      if (best && last === reach) last = this.repeats(i0 + best.x) ? Math.min(reach, d + PERIOD_MAX) : d;
      if (d === last || (best !== undefined && d + 1 >= best.score)) break;
      // The next edit count starts from the ends of this one's snakes.
      for (let k = -d; k <= d; k += 2) {
        let x = far[offset + k]!;
        if (x < 0) continue;
        let y = x - k;
        while (x < maxX && y < maxY && this.equal(i0 + x, j0 + y)) {
          x++;
          y++;
        }
        far[offset + k] = x;
      }
    }
    return best && [i0 + best.x, j0 + best.y];
  }

  /** Whether a's lines from i repeat with a period of at most PERIOD_MAX lines (SYNC lines compared). */
  private repeats(i: number): boolean {
    for (let p = 1; p <= PERIOD_MAX; p++) {
      let q = 0;
      while (q < SYNC && i + q + p < this.a1 && sameLine(this.a, this.a, i + q, i + q + p)) q++;
      if (q === SYNC) return true;
    }
    return false;
  }

  /**
   * The end of a long insertion or deletion starting at a[i0], b[j0], when the lines it
   * skips are mostly lines the other side does not have there, or the stretch it syncs on
   * occurs nowhere else nearby: in repeating text a strict sync thousands of lines off
   * happens by chance, and taking it would show most of the file as changed; the exact
   * diff decides there instead. (Text of a few distinct lines in random order skips lines
   * like its own, but SETTLED equal lines found nowhere else nearby sync it: a moved block.) The scan's work over the
   * whole walk is bounded by the texts' size. The flag: whether the jump ends the changed region (a
   * cheaper sync found instead, see cheaperSync, leaves that to the equal lines after it).
   */
  private far(i0: number, j0: number): [number, number, boolean] | undefined {
    for (let k = NEAR + 1; k <= FAR && this.budget > 0; k++, this.budget--) {
      const inserted = j0 + k <= this.b1 && this.synced(i0, j0 + k, true);
      if (!inserted && !(i0 + k <= this.a1 && this.synced(i0 + k, j0, true))) {
        if (j0 + k > this.b1 && i0 + k > this.a1) break;
        continue;
      }
      // Telling what the skipped lines are costs a lookup for each of them and for as many on
      // the other side (a map of line texts: several search steps' worth each), and telling
      // whether the sync is unambiguous a scan of the shifts near it.
      this.budget -= 16 * k + UNAMBIGUOUS_COST;
      const [x, y] = inserted ? [i0, j0 + k] : [i0 + k, j0];
      const skipped = inserted
        ? mostlyNew(this.b, j0, this.a, i0, this.a1, k)
        : mostlyNew(this.a, i0, this.b, j0, this.b1, k);
      // A sync of SYNC_CHARS is few bits in text of a few distinct lines (13 lines of two kinds),
      // and this scan tries thousands of shifts: one found by chance must not cut the text. A
      // run of SETTLED equal lines found nowhere else nearby does not happen by chance.
      if (!skipped && !(this.equalRun(x, y) >= SETTLED && this.unambiguous(x, y, NEAR))) return undefined;
      // A sync as trustworthy that skips fewer lines on both sides together wins over the
      // jump: a block moved far is replaced where it was, not thousands of lines inserted
      // past it.
      const endDiagonal = this.a1 - i0 - (this.b1 - j0);
      const jumpScore = k + Math.abs(endDiagonal - (x - i0 - (y - j0)));
      const better = cheaperSync(this.sides, SETTLED, i0, j0, k, jumpScore);
      return better ? [better.x, better.y, false] : [x, y, true];
    }
    return undefined;
  }

  /** This walk's texts as cheaperSync searches them. */
  private get sides(): SyncSides {
    return {
      a: this.a,
      b: this.b,
      a1: this.a1,
      b1: this.b1,
      trusted: (i, j) => this.equalRun(i, j) >= SETTLED && this.unambiguous(i, j, NEAR),
    };
  }

  /**
   * Whether the stretch both sides agree on from a[i], b[j] (its first SYNC_CHARS) occurs
   * nowhere else within `shift` lines of it, on either side: else another shift agrees too.
   */
  private unambiguous(i: number, j: number, shift: number): boolean {
    const S = this.a.starts;
    let lines = SYNC;
    while (lines < SYNC_MAX_LINES && i + lines < this.a1 && S[i + lines]! - S[i]! < SYNC_CHARS) lines++;
    // The first line is compared from both ends inward before the rest are: this runs at
    // every region end, and lines of code that differ mostly differ near one end (a name, a
    // number, a string) while sharing their indentation and punctuation.
    const { text } = this.a;
    const from = S[i]!;
    const length = S[i + 1]! - from;
    const elsewhere = (side: LinesWithEnds, first: number, last: number, at: number) => {
      const T = side.starts;
      const other = side.text;
      for (let p = -shift; p <= shift; p++) {
        if (p === 0 || at + p < first || at + p + lines > last) continue;
        const start = T[at + p]!;
        if (T[at + p + 1]! - start !== length) continue;
        let lo = 0;
        let hi = length - 1;
        while (
          lo <= hi &&
          text.charCodeAt(from + lo) === other.charCodeAt(start + lo) &&
          text.charCodeAt(from + hi) === other.charCodeAt(start + hi)
        ) {
          lo++;
          hi--;
        }
        if (lo <= hi) continue;
        let q = 0;
        while (q < lines && sameLine(this.a, side, i + q, at + p + q)) q++;
        if (q === lines) return true;
      }
      return false;
    };
    return !elsewhere(this.a, this.a0, this.a1, i) && !elsewhere(this.b, this.b0, this.b1, j);
  }
}

/**
 * Whether at most half of lines [from, from + k) of `side` can be paired with equal lines
 * among the `k` lines of `other` from `otherFrom` (each line of other pairs once).
 */
function mostlyNew(
  side: LinesWithEnds,
  from: number,
  other: LinesWithEnds,
  otherFrom: number,
  otherEnd: number,
  k: number,
): boolean {
  const line = (t: LinesWithEnds, i: number) => t.text.slice(t.starts[i]!, t.starts[i + 1]!);
  const there = new Map<string, number>();
  for (let t = otherFrom; t < Math.min(otherEnd, otherFrom + k); t++) {
    const key = line(other, t);
    there.set(key, (there.get(key) ?? 0) + 1);
  }
  let paired = 0;
  for (let t = from; t < from + k; t++) {
    const key = line(side, t);
    const left = there.get(key) ?? 0;
    if (left > 0) {
      there.set(key, left - 1);
      paired++;
    }
  }
  return 2 * paired <= k;
}

/** Whether line i of `a` and line j of `b` are the same, terminators included. */
export function sameLine(a: LinesWithEnds, b: LinesWithEnds, i: number, j: number): boolean {
  const A = a.starts;
  const B = b.starts;
  const length = A[i + 1]! - A[i]!;
  if (B[j + 1]! - B[j]! !== length) return false;
  return commonLength(a.text, A[i]!, A[i + 1]!, b.text, B[j]!, B[j + 1]!) === length;
}
