import { type LineSplice, mapThroughEdits } from './edit-map.js';
import { followLine } from './follow-line.js';
import { sameLineText } from './line-hash.js';
import type { LineIndex } from './resolve-anchor.js';

/** Why an anchor given earlier names no line now. */
export type GoneReason = 'replaced' | 'changed' | 'unsure';

/** Where the line an anchor was given for is now (0-based), or why it is nowhere. */
export type GivenLine = number | GoneReason;

/** Anchors remembered at most (the oldest are forgotten first, and then refused as unknown). */
const MAX_GIVEN = 4096;

/**
 * The `LINE#HASH` anchors the toolset gave for a file since the read the model
 * holds (edit_lines results, pages of later versions), each with the line it was
 * given for, carried to the latest version the toolset knows: exactly through its
 * own edits, by a diff (the line's text compared) through any other change. An
 * anchor names the line it was shown with, whichever of these surfaces showed it,
 * so an older result's anchor is never taken for another line with the same text.
 * Immutable: a call that fails (or a dry run) leaves what was remembered as it was.
 */
export class GivenAnchors {
  static readonly none = new GivenAnchors(new Map());

  private constructor(private readonly lines: ReadonlyMap<string, GivenLine>) {}

  get size(): number {
    return this.lines.size;
  }

  /**
   * The line given with `line#hash`. A shorter hash (4-5 digits) is taken when exactly
   * one anchor given with that line number starts with it.
   */
  lookup(line: number, hash: string): GivenLine | undefined {
    const exact = this.lines.get(`${line}#${hash.slice(0, 6)}`);
    if (exact !== undefined || hash.length >= 6) return exact;
    let found: GivenLine | undefined;
    let matches = 0;
    const prefix = `${line}#${hash}`;
    for (const [anchor, at] of this.lines) {
      if (!anchor.startsWith(prefix)) continue;
      matches++;
      found = at;
    }
    return matches === 1 ? found : undefined;
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
    return this.map((at) => {
      const mapped = followLine(from, to, at);
      if (mapped === 'changed') return 'changed';
      if (mapped === undefined || mapped === 'unsure') return 'unsure';
      return sameLineText(from.line(at), to.line(mapped)) ? mapped : 'changed';
    });
  }

  /** With anchors a newer surface gave (0-based lines): each replaces an older anchor of the same text. */
  with(anchors: Iterable<readonly [string, number]>): GivenAnchors {
    const lines = new Map(this.lines);
    for (const [anchor, at] of anchors) {
      lines.delete(anchor); // re-inserted last: the newest are kept longest
      lines.set(anchor, at);
    }
    for (const oldest of lines.keys()) {
      if (lines.size <= MAX_GIVEN) break;
      lines.delete(oldest);
    }
    return new GivenAnchors(lines);
  }

  private map(carry: (at: number) => GivenLine): GivenAnchors {
    const lines = new Map<string, GivenLine>();
    for (const [anchor, at] of this.lines) lines.set(anchor, typeof at === 'number' ? carry(at) : at);
    return new GivenAnchors(lines);
  }
}

/** The `LINE#HASH` anchors shown in text (a page's lines, or a result diff's context and added lines). */
export function anchorsShownIn(text: string, diff: boolean): Array<[string, number]> {
  const pattern = diff ? /^[ +](\d+)#([0-9a-f]{6})\|/gm : /^(\d+)#([0-9a-f]{6})\|/gm;
  return [...text.matchAll(pattern)].map((m) => [`${m[1]}#${m[2]}`, Number(m[1]) - 1]);
}
