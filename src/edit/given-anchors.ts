import { type LineSplice, mapThroughEdits } from './edit-map.js';
import { followLine } from './follow-line.js';
import { hex, sameLineText } from './line-hash.js';
import type { LineIndex } from './resolve-anchor.js';

/** Why an anchor given earlier names no line now. */
export type GoneReason = 'replaced' | 'changed' | 'unsure';

/** Where the line an anchor was given for is now (0-based), or why it is nowhere. */
export type GivenLine = number | GoneReason;

/** One anchor given: its line now, and whether the model has read the file whole since (see asOlder). */
export interface Given {
  anchor: string;
  at: GivenLine;
  older: boolean;
}

/** Anchors remembered at most (the oldest are forgotten first, and then refused as unknown). */
const MAX_GIVEN = 4096;
/**
 * Anchors followed through a change made elsewhere (a diff per line; a repeated line
 * costs a search around it): the newest this many, the older are refused from then on.
 */
const MAX_FOLLOWED = 256;

/**
 * The `LINE#HASH` anchors the toolset gave for a file (edit_lines results, pages),
 * each with the line it was given for, carried to the latest version the toolset
 * knows: exactly through its own edits, by a diff (the line's text compared) through
 * any other change. An anchor names the line it was shown with, whichever surface
 * showed it, so an older result's anchor is never taken for another line with the
 * same text. Immutable: a call that fails (or a dry run) leaves what was remembered.
 */
export class GivenAnchors {
  static readonly none = new GivenAnchors(new Map());

  private constructor(private readonly lines: ReadonlyMap<string, Given>) {}

  get size(): number {
    return this.lines.size;
  }

  /**
   * The anchor given as `line#hash`. A shorter hash (4-5 digits) is taken when exactly
   * one anchor given with that line number starts with it ('ambiguous' when several do).
   */
  lookup(line: number, hash: string): Given | 'ambiguous' | undefined {
    const exact = this.lines.get(`${line}#${hash.slice(0, 6)}`);
    if (exact !== undefined || hash.length >= 6) return exact;
    const prefix = `${line}#${hash}`;
    const found = [...this.lines.values()].filter((g) => g.anchor.startsWith(prefix));
    return found.length > 1 ? 'ambiguous' : found[0];
  }

  /** The anchors given with this hash (6 digits, or a prefix), whatever their line numbers. */
  withHash(hash: string): Given[] {
    return [...this.lines.values()].filter((g) => g.anchor.slice(g.anchor.indexOf('#') + 1).startsWith(hash));
  }

  /** Carried through one of the toolset's own edits (its splices, sorted): exact. */
  throughEdit(splices: readonly LineSplice[]): GivenAnchors {
    if (this.lines.size === 0 || splices.length === 0) return this;
    return this.map((at) => mapThroughEdits(at, [splices]) ?? 'replaced');
  }

  /**
   * Carried through a change the toolset did not make, from version `from` to `to`:
   * each line followed by a diff (see followLine), and kept only when its text is the
   * same there (its hash alone is 32 bits).
   */
  throughChange(from: LineIndex, to: LineIndex): GivenAnchors {
    if (this.lines.size === 0 || from === to) return this;
    let left = 0;
    for (const g of this.lines.values()) if (typeof g.at === 'number') left++;
    return this.map((at) => {
      if (left-- > MAX_FOLLOWED) return 'unsure';
      const mapped = followLine(from, to, at);
      if (mapped === 'changed') return 'changed';
      if (mapped === undefined || mapped === 'unsure') return 'unsure';
      return sameLineText(from.line(at), to.line(mapped)) ? mapped : 'changed';
    });
  }

  /** The same anchors, from before a read of the whole file: that read's own anchors come first. */
  asOlder(): GivenAnchors {
    const lines = new Map<string, Given>();
    for (const [anchor, g] of this.lines) lines.set(anchor, { ...g, older: true });
    return new GivenAnchors(lines);
  }

  /** With anchors a newer surface gave (0-based lines): each replaces an older anchor of the same text. */
  with(anchors: Iterable<readonly [string, number]>): GivenAnchors {
    const lines = new Map(this.lines);
    for (const [anchor, at] of anchors) {
      lines.delete(anchor); // re-inserted last: the newest are kept longest
      lines.set(anchor, { anchor, at, older: false });
    }
    for (const oldest of lines.keys()) {
      if (lines.size <= MAX_GIVEN) break;
      lines.delete(oldest);
    }
    return new GivenAnchors(lines);
  }

  /** With anchors a read showed for lines the toolset can no longer follow (refused when used). */
  withGone(anchors: Iterable<string>): GivenAnchors {
    const lines = new Map(this.lines);
    for (const anchor of anchors) {
      lines.delete(anchor);
      lines.set(anchor, { anchor, at: 'changed', older: false });
    }
    for (const oldest of lines.keys()) {
      if (lines.size <= MAX_GIVEN) break;
      lines.delete(oldest);
    }
    return new GivenAnchors(lines);
  }

  /** Each line carried by `carry` (oldest first); lines already gone stay gone. */
  private map(carry: (at: number) => GivenLine): GivenAnchors {
    const lines = new Map<string, Given>();
    for (const [anchor, g] of this.lines)
      lines.set(anchor, typeof g.at === 'number' ? { ...g, at: carry(g.at) } : g);
    return new GivenAnchors(lines);
  }
}

const ANCHOR_AT_START = /^(\d+)#([0-9a-f]{6})\|/;
const DIFF_ANCHOR_AT_START = /^[ +](\d+)#([0-9a-f]{6})\|/;

/**
 * The `LINE#HASH` anchors shown in text (a page's lines, or a result diff's context
 * and added lines). Lines are split at "\n" only, as the file's lines are: text after
 * a lone CR or a U+2028 inside a line is that line's content, never an anchor.
 */
export function anchorsShownIn(text: string, diff: boolean): Array<[string, number]> {
  const pattern = diff ? DIFF_ANCHOR_AT_START : ANCHOR_AT_START;
  const out: Array<[string, number]> = [];
  for (const line of text.split('\n')) {
    const m = pattern.exec(line);
    if (m) out.push([`${m[1]}#${m[2]}`, Number(m[1]) - 1]);
  }
  return out;
}

/**
 * The anchors an earlier read showed that a new read of the file does not show at the
 * same number (its lines moved, changed or went): the first MAX_GIVEN of them.
 */
export function anchorsNotShownAgain(earlier: LineIndex, now: LineIndex): string[] {
  const out: string[] = [];
  for (let i = 0; i < earlier.count && out.length < MAX_GIVEN; i++)
    if (i >= now.count || earlier.shown[i] !== now.shown[i])
      out.push(`${i + 1}#${hex(earlier.shown[i]!, 6)}`);
  return out;
}
