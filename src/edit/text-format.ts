import { countNewlineBytes } from './newline-bytes.js';

export const BOM = '\uFEFF';

/** Occurrences of `needle` in `text`, counted without allocating (split would build a huge array). */
export function countOf(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** The majority line ending; a text without any CR is LF without counting anything. */
export function detectEol(text: string): '\n' | '\r\n' {
  if (!text.includes('\r')) return '\n';
  const crlf = countOf(text, '\r\n');
  const lf = countOf(text, '\n') - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/**
 * Splits off a BOM so algorithms see plain text; `restore` puts it back. A request that
 * names the BOM itself (`named`: its text starts with one, as `diff -u` of the file shows
 * it) is matched against the text as it is, BOM and all, so it neither doubles nor stays.
 */
export function withoutBom(text: string, named = false): { body: string; restore: (body: string) => string } {
  if (named || !text.startsWith(BOM)) return { body: text, restore: (b) => b };
  return { body: text.slice(1), restore: (b) => BOM + b };
}

/**
 * Whether an edit would put a second BOM behind the one the file starts with (reads
 * never show it, so a model adding "a BOM" writes one more); then it is refused, not
 * guessed: the new text may mean the BOM there already or a U+FEFF of its own.
 */
export function addsSecondBom(text: string, { head, middle, tail }: TextSplice): boolean {
  if (head >= 2 || !text.startsWith(BOM) || text.startsWith(BOM + BOM)) return false;
  // The new text's first two characters from its parts: reading the joined text would flatten it.
  let start = text.slice(0, head) + middle.slice(0, 2 - head);
  if (start.length < 2) start += text.slice(text.length - tail, text.length - tail + 2 - start.length);
  return start === BOM + BOM;
}

export const SECOND_BOM_MESSAGE =
  'The file starts with a byte-order mark (U+FEFF), which reads do not show, and this edit would write a second one after it. Nothing was changed: leave U+FEFF out of the start of your new text (the file keeps its BOM).';

/** Model text (LF, maybe stray CR) converted to the file's line ending. */
export function toFileEol(text: string, eol: '\n' | '\r\n'): string {
  const lf = text.replaceAll('\r\n', '\n');
  return eol === '\n' ? lf : lf.replaceAll('\n', '\r\n');
}

/**
 * Splits text into lines WITHOUT terminators, remembering each line's own
 * terminator, so unchanged lines can be written back byte for byte.
 */
export interface SplitLines {
  lines: string[];
  /** terminators[i] is '\n', '\r\n' or '' (last line without a final newline). */
  terminators: string[];
}

export function splitLines(body: string): SplitLines {
  const lines: string[] = [];
  const terminators: string[] = [];
  let start = 0;
  while (start < body.length) {
    const nl = body.indexOf('\n', start);
    if (nl === -1) {
      lines.push(body.slice(start));
      terminators.push('');
      break;
    }
    const cr = nl > start && body.charCodeAt(nl - 1) === 13;
    lines.push(body.slice(start, cr ? nl - 1 : nl));
    terminators.push(cr ? '\r\n' : '\n');
    start = nl + 1;
  }
  return { lines, terminators };
}

export function joinLines(split: SplitLines): string {
  const { lines, terminators } = split;
  const n = lines.length;
  if (n === 0) return '';
  // One line ending throughout (the usual file): a native join, not a million concatenations.
  const eol = terminators[0]!;
  let uniform = eol !== '';
  for (let i = 1; uniform && i < n - 1; i++) uniform = terminators[i] === eol;
  if (uniform && n > 1) return lines.join(eol) + terminators[n - 1]!;
  let out = '';
  for (let i = 0; i < n; i++) out += lines[i]! + terminators[i]!;
  return out;
}

/**
 * A new text as the old one with its middle replaced: old[0, head) + middle +
 * old[old.length - tail, old.length). A writer copies the unchanged ends as they are.
 */
export interface TextSplice {
  head: number;
  middle: string;
  tail: number;
}

/** Where the line holding character `p` starts. */
export function lineStartAt(text: string, p: number): number {
  // lastIndexOf(…, -1) would look at index 0: the first line needs no search.
  return p === 0 ? 0 : text.lastIndexOf('\n', p - 1) + 1;
}

/**
 * 1-based line numbers of ascending character offsets, found by counting newlines
 * up to each offset (no array of every line start is built). `bytes`, when given,
 * are the text's latin1 bytes (an ASCII text's own): counted there, four at a time.
 */
export function lineNumbersAt(text: string, offsets: readonly number[], bytes?: Uint8Array): number[] {
  // Sized once: a million hits grow no array step by step.
  const out = new Array<number>(offsets.length);
  let line = 1;
  let at = 0;
  for (let k = 0; k < offsets.length; k++) {
    const offset = offsets[k]!;
    if (offset > at) line += countNewlines(text, at, offset, bytes);
    at = Math.max(at, offset);
    out[k] = line;
  }
  return out;
}

/**
 * Newlines in text[from, to). Short lines are counted by a character loop (indexOf per
 * line costs more than the line), or in the text's latin1 bytes four at a time when
 * given; long ones by indexOf, which skips them whole (faster than either).
 */
function countNewlines(text: string, from: number, to: number, bytes?: Uint8Array): number {
  let count = 0;
  const probe = Math.min(to, from + 256);
  let i = from;
  for (; i < probe; i++) if (text.charCodeAt(i) === 10) count++;
  if (i >= to) return count;
  if (count * 16 > probe - from) {
    if (bytes) return count + countNewlineBytes(bytes, i, to);
    for (; i < to; i++) if (text.charCodeAt(i) === 10) count++;
    return count;
  }
  for (let nl = text.indexOf('\n', i); nl !== -1 && nl < to; nl = text.indexOf('\n', nl + 1)) count++;
  return count;
}
