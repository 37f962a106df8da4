import { diffChars, diffWordsWithSpace } from 'diff';
import type { DiffRow } from './diff-rows.js';

/** A piece of a drawn line: changed pieces are marked, markers count characters not drawn. */
export interface WordPiece {
  text: string;
  changed: boolean;
  marker?: boolean;
}

/** A line longer than this is shown as a window (around its first change, if paired). */
export const LONG_LINE = 2000;
/** Characters kept before a long line's first change. */
const BEFORE_CHANGE = 200;
/**
 * Most tokens (words, spaces, or characters in a window) a pair's highlight may insert
 * or remove. Myers costs about edits² per pair, so the bound keeps a pair near a
 * millisecond at any length; a pair past it has little in common and is drawn as a
 * whole-line change. A pair within it gets exactly the minimal diff it always got.
 */
export const MAX_WORD_EDITS = 100;

/** Computed when a row is first drawn: a big diff pays only for the rows on screen. */
const cache = new WeakMap<DiffRow, WordPiece[] | null>();

/**
 * The pieces a row is drawn as: for a removed/added line paired with its
 * counterpart, the changed words marked; for a long line, a window with
 * `…N more characters` markers. `undefined`: draw the row's text as it is.
 */
export function wordsOf(row: DiffRow): WordPiece[] | undefined {
  if (row.kind === 'hunk' || row.kind === 'note') return undefined;
  let words = cache.get(row);
  if (words === undefined) {
    if (row.partner) {
      const [del, add] = row.kind === 'del' ? [row, row.partner] : [row.partner, row];
      const [delWords, addWords] = pairWords(del.text, add.text);
      cache.set(del, delWords);
      cache.set(add, addWords);
      words = row === del ? delWords : addWords;
    } else {
      words = row.text.length > LONG_LINE ? windowHead(row.text) : null;
      cache.set(row, words);
    }
  }
  return words ?? undefined;
}

/** The pieces of a removed line and its added partner (null: draw unmarked). */
function pairWords(oldLine: string, newLine: string): [WordPiece[] | null, WordPiece[] | null] {
  if (oldLine.length <= LONG_LINE && newLine.length <= LONG_LINE) {
    const parts = diffWordsWithSpace(oldLine, newLine, { maxEditLength: MAX_WORD_EDITS });
    return parts ? piecesOf(parts) : [null, null];
  }
  // Only a window around the first change is compared and drawn: the cost stays bounded
  // by what is shown, and the first change is always in it.
  let p = 0;
  const n = Math.min(oldLine.length, newLine.length);
  while (p < n && oldLine.charCodeAt(p) === newLine.charCodeAt(p)) p++;
  const start = clip(oldLine, Math.max(0, p - BEFORE_CHANGE));
  const oldText = oldLine.slice(start, clip(oldLine, start + LONG_LINE));
  const newText = newLine.slice(start, clip(newLine, start + LONG_LINE));
  // A window cuts words: compare it by characters (it is short), so one changed letter is marked alone.
  const parts = diffChars(oldText, newText, { maxEditLength: MAX_WORD_EDITS });
  const [del, add] = parts
    ? piecesOf(parts)
    : [[{ text: oldText, changed: false }], [{ text: newText, changed: false }]];
  if (start > 0) for (const w of [del, add]) w.unshift(moreMarker(start, 'before'));
  const oldRest = oldLine.length - start - oldText.length;
  const newRest = newLine.length - start - newText.length;
  if (oldRest > 0) del.push(moreMarker(oldRest, 'after'));
  if (newRest > 0) add.push(moreMarker(newRest, 'after'));
  return [del, add];
}

function piecesOf(
  parts: Array<{ value: string; added: boolean; removed: boolean }>,
): [WordPiece[], WordPiece[]] {
  const del: WordPiece[] = [];
  const add: WordPiece[] = [];
  for (const p of parts) {
    if (!p.added) del.push({ text: p.value, changed: p.removed });
    if (!p.removed) add.push({ text: p.value, changed: p.added });
  }
  return [del, add];
}

/** A long line without a partner: its start and a count of the rest. */
function windowHead(text: string): WordPiece[] {
  const end = clip(text, LONG_LINE);
  return [{ text: text.slice(0, end), changed: false }, moreMarker(text.length - end, 'after')];
}

/** A cut never splits a surrogate pair. */
function clip(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const c = text.charCodeAt(at);
  return c >= 0xdc00 && c <= 0xdfff ? at - 1 : at;
}

function moreMarker(n: number, where: 'before' | 'after'): WordPiece {
  const text = `…${n.toLocaleString('en-US')} more character${n === 1 ? '' : 's'}`;
  return { text: where === 'before' ? `${text} ` : ` ${text}`, changed: false, marker: true };
}
