import type { StructuredPatch } from 'diff';
import type { Placement } from './fix-unified-diff.js';
import { hash32, trimmedEnd } from './line-hash.js';
import type { LineTable } from './line-table.js';

/**
 * Whether every line the hunks matched ends with `eol`: then each new line ends with
 * it too (a kept line keeps its own ending, a new one takes the file's), whatever the
 * rest of the file uses. An unterminated last line is left to the general path.
 */
export function endingsAllow(
  table: LineTable,
  placements: readonly Placement[],
  eol: '\n' | '\r\n',
): boolean {
  const { text } = table;
  const crlf = eol === '\r\n';
  for (const p of placements) {
    if (p.end === table.count && table.count > 0 && !text.endsWith('\n')) return false;
    for (let i = p.start; i < p.end; i++) {
      const nl = table.offset(i + 1) - 1;
      if ((nl > table.offset(i) && text.charCodeAt(nl - 1) === 13) !== crlf) return false;
    }
  }
  return true;
}

/**
 * Whether the general path would write a placed hunk's added lines exactly as the
 * hunk has them. At the exact level always (a line kept from the file has the same
 * text). With trailing whitespace ignored, only if no added line could stand for an
 * old line (a kept or moved line takes the FILE's text): checked by hashes of the
 * lines without trailing whitespace, in place (a collision only means "no").
 * Other levels re-indent or re-quote: never.
 */
export function addedAsWritten(p: Placement): boolean {
  if (p.level === 'exact') return true;
  if (p.level !== 'trailing_whitespace') return false;
  const d = p.hunk.diff;
  const key = (i: number) => {
    const from = d.start(i) + (d.prefixed(i) ? 1 : 0);
    return hash32(d.text, from, trimmedEnd(d.text, from, d.end(i)));
  };
  const old = new Set<number>();
  for (let i = p.from; i < p.to; i++) if (d.kind(i) !== '+') old.add(key(i));
  for (let i = p.from; i < p.to; i++) if (d.kind(i) === '+' && old.has(key(i))) return false;
  return true;
}

/** Below this size a block is converted with one replaceAll; above, by a byte loop (several times faster). */
const SMALL = 1 << 16;

/**
 * Added lines `+a\n+b\n+c` (one run of the diff's text) as ONE patch line for
 * `diff`: `+a{eol}b{eol}c`, plus a CR when the file is CRLF (diff splits the file
 * on LF, so its lines keep their CR). One native pass, no string per line.
 */
export function addedBlock(block: string, eol: '\n' | '\r\n'): string {
  const cr = eol === '\r\n';
  if (block.length < SMALL) return block.replaceAll('\n+', eol) + (cr ? '\r' : '');
  if (Buffer.byteLength(block, 'utf8') === block.length) {
    const bytes = Buffer.from(block, 'latin1');
    return cr ? asciiCrlf(bytes) : asciiLf(bytes);
  }
  const from = Buffer.from(block, 'utf16le');
  const units = new Uint16Array(from.buffer, from.byteOffset, from.length >> 1);
  // CRLF adds a CR before each newline and at the end: never longer than 2× the input.
  const out = cr ? new Uint16Array(units.length * 2) : units;
  let j = 0;
  for (let i = 0; i < units.length; i++) {
    const c = units[i]!;
    if (c === 10) {
      if (cr) out[j++] = 13;
      out[j++] = 10;
      i++; // the next line's `+`
    } else out[j++] = c;
  }
  if (cr) out[j++] = 13;
  return Buffer.from(out.buffer, out.byteOffset, j * 2).toString('utf16le');
}

// One loop per case, each over one array type: a loop shared by several runs slower.

/** ASCII block, LF file: each newline drops the `+` after it, written over the input as it is read. */
function asciiLf(bytes: Buffer): string {
  let j = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    bytes[j++] = c;
    if (c === 10) i++;
  }
  return bytes.toString('latin1', 0, j);
}

/** ASCII block, CRLF file: a CR before each newline and at the end. */
function asciiCrlf(bytes: Buffer): string {
  const out = Buffer.allocUnsafe(bytes.length * 2 + 1);
  let j = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 10) {
      out[j++] = 13;
      i++;
    }
    out[j++] = c;
  }
  out[j++] = 13;
  return out.toString('latin1', 0, j);
}

export interface ExactPlan {
  /** Whether `applied` is what the window becomes (checked piece by piece, never built). */
  matches: (applied: string) => boolean;
  /** The corrected patch of the window, for `diff`'s applyPatch. */
  patch: StructuredPatch;
  /** The same patch as unified-diff text, in file line numbers. */
  correctedDiff: () => string;
}

/**
 * The corrected patch when every hunk's added lines are its own text (see
 * addedAsWritten), in lines with the file's line ending (see endingsAllow):
 * context and `-` lines are the file's own lines, `+` lines the hunk's text with
 * the file's ending. A run of added lines is one
 * patch line holding the whole block (`diff` copies it verbatim, as it would each
 * line); context and removed lines stay one per line, so the strict apply still
 * checks every old line against the window.
 */
export function exactPatch(
  table: LineTable,
  placements: readonly Placement[],
  from: number,
  to: number,
  eol: '\n' | '\r\n',
): ExactPlan {
  const text = table.text;
  const cr = eol === '\r\n' ? '\r' : '';
  const hunks: StructuredPatch['hunks'] = [];
  const parts: string[] = [];
  let copied = from;
  let shift = 0;
  for (const p of placements) {
    parts.push(text.slice(table.offset(copied), table.offset(p.start)));
    const d = p.hunk.diff;
    const lines: string[] = [];
    let oldLines = 0;
    let newLines = 0;
    for (let i = p.from; i < p.to; i++) {
      const kind = d.kind(i);
      if (kind !== '+') {
        // The file's line: the hunk's copy may differ in trailing whitespace.
        const line = table.line(p.start + oldLines);
        lines.push(kind + line + cr);
        oldLines++;
        if (kind === ' ') {
          parts.push(line, eol);
          newLines++;
        }
        continue;
      }
      // A run of added lines written one after another in the diff becomes one block.
      let j = i + 1;
      while (j < p.to && d.kind(j) === '+' && d.start(j) === d.end(j - 1) + 1) j++;
      const entry = addedBlock(d.text.slice(d.start(i), d.end(j - 1)), eol);
      lines.push(entry);
      parts.push(entry.slice(1, entry.length - cr.length), eol);
      newLines += j - i;
      i = j - 1;
    }
    const oldStart = p.start - from + 1;
    hunks.push({ oldStart, oldLines, newStart: oldStart + shift, newLines, lines });
    shift += newLines - oldLines;
    copied = p.end;
  }
  parts.push(text.slice(table.offset(copied), table.offset(to)));
  return {
    matches: (applied) => {
      let at = 0;
      for (const part of parts) {
        if (!applied.startsWith(part, at)) return false;
        at += part.length;
      }
      return at === applied.length;
    },
    patch: { oldFileName: '/file', newFileName: '/file', oldHeader: '', newHeader: '', hunks },
    correctedDiff: () => unifiedText(hunks, from),
  };
}

/** A structured patch as unified-diff text (blocks back to one line each), hunk headers moved down `from` lines. */
function unifiedText(hunks: StructuredPatch['hunks'], from: number): string {
  let out = '--- a/file\n+++ b/file\n';
  for (const h of hunks) {
    // An empty side's start names the line before it (the GNU convention, as jsdiff writes it).
    const os = from + h.oldStart - (h.oldLines === 0 ? 1 : 0);
    const ns = from + h.newStart - (h.newLines === 0 ? 1 : 0);
    out += `@@ -${os},${h.oldLines} +${ns},${h.newLines} @@\n`;
    for (const line of h.lines) out += `${line[0] === '+' ? line.replaceAll('\n', '\n+') : line}\n`;
  }
  return out;
}
