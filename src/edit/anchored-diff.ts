import { DiagonalWalk, sameLine } from './diagonal-walk.js';
import { type EmitRun, idDiff } from './id-diff.js';
import { RunList } from './run-list.js';
import { WorkBudget } from './work-budget.js';

export interface AnchoredDiff {
  runs: RunList;
  /** True when some region ran out of time and is shown as one replacement (that region only). */
  coarse: boolean;
}

/** A text's lines with their terminators, read in place (see LineTable). */
export interface LinesWithEnds {
  readonly count: number;
  readonly text: string;
  /** starts[i] is where line i begins; starts[count] is the text's length (read only). */
  readonly starts: Int32Array;
  offset(i: number): number;
}

/** Lines (old + new) a whole-text diff compares exactly, without the walk. */
const WALK_FROM = 16_384;

/** A text's code units as bytes when it is ASCII (the usual source file), else undefined. */
function asciiBytes(text: string, from: number, to: number): Buffer | undefined {
  if (to - from < 1 << 14) return undefined; // small: the string loop is as fast, and allocates nothing
  const part = text.slice(from, to);
  return Buffer.byteLength(part, 'utf8') === part.length ? Buffer.from(part, 'latin1') : undefined;
}

/**
 * Exact integer ids for lines [ranges[0], ranges[1]) of `a` and [ranges[2],
 * ranges[3]) of `b` (equal lines, terminators included, share an id). Lines are hashed in place (from
 * their bytes when the text is ASCII: a much faster loop) into an open-addressing
 * table of typed arrays, and a hash hit is confirmed by comparing the two lines
 * (natively for bytes), so no line becomes a string and no Map holds a million keys.
 */
function lineIds(
  a: LinesWithEnds,
  b: LinesWithEnds,
  ranges: readonly [number, number, number, number],
): { A: Int32Array; B: Int32Array; size: number } {
  const sides = [a, b];
  const firsts = [ranges[0], ranges[2]];
  const counts = [ranges[1] - ranges[0], ranges[3] - ranges[2]];
  const bytes = sides.map((t, s) =>
    asciiBytes(t.text, t.offset(firsts[s]!), t.offset(firsts[s]! + counts[s]!)),
  );
  const base = sides.map((t, s) => t.offset(firsts[s]!));
  let slots = 16;
  while (slots < 2 * (counts[0]! + counts[1]!)) slots *= 2;
  const mask = slots - 1;
  const table = new Int32Array(slots).fill(-1); // slot → id
  const slotHash = new Int32Array(slots);
  const total = counts[0]! + counts[1]!;
  const ownerSide = new Uint8Array(total); // id → a line that has it
  const ownerLine = new Int32Array(total);
  let size = 0;
  const same = (side: number, i: number, o: number, j: number) => {
    const t = sides[side]!;
    const u = sides[o]!;
    const from = t.offset(i);
    const length = t.offset(i + 1) - from;
    const uFrom = u.offset(j);
    if (u.offset(j + 1) - uFrom !== length) return false;
    const tb = bytes[side];
    const ub = bytes[o];
    if (tb && ub) {
      const x = from - base[side]!;
      const y = uFrom - base[o]!;
      return tb.compare(ub, y, y + length, x, x + length) === 0;
    }
    for (let k = 0; k < length; k++)
      if (t.text.charCodeAt(from + k) !== u.text.charCodeAt(uFrom + k)) return false;
    return true;
  };
  const idsOf = (side: number) => {
    const t = sides[side]!;
    const out = new Int32Array(counts[side]!);
    const { text } = t;
    const data = bytes[side];
    const origin = base[side]!;
    const first = firsts[side]!;
    for (let r = 0; r < out.length; r++) {
      const i = r + first;
      const from = t.offset(i);
      const to = t.offset(i + 1);
      let h = 0x811c9dc5;
      if (data) for (let k = from - origin; k < to - origin; k++) h = Math.imul(h ^ data[k]!, 0x01000193);
      else for (let k = from; k < to; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
      h ^= h >>> 15;
      let slot = h & mask;
      let id = -1;
      for (;;) {
        const candidate = table[slot]!;
        if (candidate === -1) break;
        if (slotHash[slot] === h && same(side, i, ownerSide[candidate]!, ownerLine[candidate]!)) {
          id = candidate;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (id === -1) {
        id = size++;
        ownerSide[id] = side;
        ownerLine[id] = i;
        table[slot] = id;
        slotHash[slot] = h;
      }
      out[r] = id;
    }
    return out;
  };
  const A = idsOf(0);
  const B = idsOf(1);
  return { A, B, size };
}

/**
 * A line diff that stays exact at scale. Equal lines at both ends are trimmed in
 * place; the diagonal walk (see diagonal-walk.ts) then finds the changed regions
 * of two similar texts in one native pass, and only those are diffed. Each region
 * is diffed as git does (idDiff: bounded Myers over integer line ids). A region whose
 * search runs past the budget (counted in search steps: see work-budget.ts) is shown as one replacement and the result is
 * marked `coarse`; the rest stays exact. Stretches that share almost no line are
 * shown as one replacement too (that is what they are), without the search.
 */
export function anchoredDiff(
  a: LinesWithEnds,
  b: LinesWithEnds,
  timeBudgetMs: number,
  /**
   * Where the texts may differ, as line ranges a0, a1, b0, b1 (four numbers each, ascending):
   * the lines between them are equal and kept as they are (an edit knows where it changed
   * the text). By default the whole texts.
   */
  regions: Int32Array = Int32Array.of(0, a.count, 0, b.count),
): AnchoredDiff {
  // Each region makes a run of kept lines before it and, when small, one removed and one added.
  const runs = new RunList(Math.min(3 * (regions.length / 4) + 1, 2 * (a.count + b.count) + 1));
  const emit: EmitRun = (kind, count) => runs.add(kind, count);
  const budget = new WorkBudget(timeBudgetMs);
  let coarse = false;
  let done = 0;
  for (let q = 0; q < regions.length; q += 4) {
    const a0 = regions[q]!;
    const a1 = regions[q + 1]!;
    const b0 = regions[q + 2]!;
    const b1 = regions[q + 3]!;
    emit('=', a0 - done);
    // Equal lines at the region's ends are compared in place first: an insertion or a
    // small change then costs nothing for the lines around it.
    const room = Math.min(a1 - a0, b1 - b0);
    const head = sharedLines(a, b, a0, b0, room, 1);
    const tail = sharedLines(a, b, a1 - 1, b1 - 1, room - head, -1);
    emit('=', head);
    if (head + tail === a1 - a0 || head + tail === b1 - b0) {
      // One side is only shared lines: the rest of the other side was inserted or removed.
      emit('-', a1 - a0 - head - tail);
      emit('+', b1 - b0 - head - tail);
    } else if (a1 - a0 - head - tail === 1 && b1 - b0 - head - tail === 1) {
      // One line for one (they differ: equal ones were trimmed), what the walk would find:
      // a replace_all of a million lines sets up no walk for each.
      emit('-', 1);
      emit('+', 1);
    } else if (regions.length === 4 && a1 - a0 - head - tail + (b1 - b0 - head - tail) <= WALK_FROM) {
      // One text against another of modest size: the exact diff costs milliseconds, and the
      // walk, a shortcut for big texts, could only make it longer.
      coarse = exactDiff(a, b, [a0 + head, a1 - tail, b0 + head, b1 - tail], budget, emit) || coarse;
    } else {
      const walk = new DiagonalWalk(a, b, a0 + head, a1 - tail, b0 + head, b1 - tail);
      for (const [c0, c1, d0, d1] of walk.changed((n) => emit('=', n)))
        coarse = exactDiff(a, b, [c0, c1, d0, d1], budget, emit) || coarse;
    }
    emit('=', tail);
    done = a1;
  }
  emit('=', a.count - done);
  return { runs, coarse };
}

/**
 * The exact diff of lines [a0, a1) of `a` and [b0, b1) of `b`, emitted as runs;
 * true when some part ran out of time and was emitted as one replacement.
 */
function exactDiff(
  a: LinesWithEnds,
  b: LinesWithEnds,
  ranges: readonly [number, number, number, number],
  budget: WorkBudget,
  emit: EmitRun,
): boolean {
  if (
    ranges[0] === ranges[1] ||
    ranges[2] === ranges[3] ||
    (ranges[1] - ranges[0] === 1 && ranges[3] - ranges[2] === 1 && !sameLine(a, b, ranges[0], ranges[2]))
  ) {
    // Only removed or only added lines, or one line changed: nothing to search.
    emit('-', ranges[1] - ranges[0]);
    emit('+', ranges[3] - ranges[2]);
    return false;
  }
  const { A, B, size } = lineIds(a, b, ranges);
  return idDiff(A, B, size, budget, emit);
}

/** How many lines (terminators included) are equal walking from a[i], b[j] by `step`, at most `max`. */
function sharedLines(
  a: LinesWithEnds,
  b: LinesWithEnds,
  i: number,
  j: number,
  max: number,
  step: 1 | -1,
): number {
  let n = 0;
  while (n < max && sameLine(a, b, i + n * step, j + n * step)) n++;
  return n;
}
