import { afterChangeSeen, type EarlierRead } from '../edit/apply-line-edits.js';
import { type LineSplice, lineSpliceOf, withEdit } from '../edit/edit-map.js';
import { GivenAnchors } from '../edit/given-anchors.js';
import { LineIndex } from '../edit/resolve-anchor.js';
import type { TextSplice } from '../edit/text-format.js';
import type { ToolContext } from './types.js';

/**
 * The toolset met `text`, a version of a file it gave anchors for, that it did not
 * make line by line (another writer, its own write_file): recorded as a change it saw,
 * so every anchor it gave is followed between the two versions it saw (a line that
 * change deleted stays deleted, whatever comes back later). Any tool that loads the
 * file, a failed call or a dry run included, sees it.
 */
export function observeVersion(ctx: ToolContext, key: string, text: string): void {
  const snapshot = ctx.anchors.get(key);
  if (snapshot === undefined || snapshot === text) return;
  const held = ctx.earlierAnchors.get(key);
  const from = LineIndex.of(snapshot);
  const to = LineIndex.of(text);
  const given = held?.given ?? GivenAnchors.none;
  ctx.earlierAnchors.set(key, {
    text: held?.text ?? snapshot,
    given: given.size > 0 ? given.throughChange(from, to) : given,
    ...(held?.index ? { index: held.index } : {}),
    ...afterChangeSeen(held, from, to),
    unshown: true,
  });
  ctx.anchors.set(key, text);
}

/**
 * The toolset's own edit of such a file (edit_file, patch_file: a splice of its text):
 * the lines it did not touch are carried exactly, as edit_lines' own are. Without a
 * splice (a whole new content) it is a change seen (observeVersion).
 */
export function observeOwnEdit(
  ctx: ToolContext,
  key: string,
  before: string,
  after: string,
  splice: TextSplice | undefined,
): void {
  if (!ctx.anchors.has(key)) return;
  observeVersion(ctx, key, before);
  if (!splice) {
    observeVersion(ctx, key, after);
    return;
  }
  const splices: LineSplice[] = [lineSpliceOf(before, splice)];
  const held = ctx.earlierAnchors.get(key);
  ctx.earlierAnchors.set(key, {
    text: held?.text ?? before,
    given: (held?.given ?? GivenAnchors.none).throughEdit(splices),
    ...(held?.index ? { index: held.index } : {}),
    ...(held ? withOwnEdit(held, splices) : { edits: [splices] }),
    unshown: true,
  });
  ctx.anchors.set(key, after);
}

/** How the read's lines are carried once `splices` are applied too. */
export function withOwnEdit(
  held: EarlierRead,
  splices: readonly LineSplice[],
): Pick<EarlierRead, 'edits' | 'via' | 'lost'> {
  if (held.edits) return { edits: withEdit(held.edits, splices), ...(held.via ? { via: held.via } : {}) };
  return held.lost ? { lost: true } : {};
}
