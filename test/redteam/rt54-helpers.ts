// Red team rt54: shared helpers (real temp dirs, public API only).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { tempDir } from '../helpers/temp-project.js';
import { textArbitrary } from '../helpers/text-arbitrary.js';

export const sha = (s: string | Buffer): string =>
  createHash('sha256')
    .update(typeof s === 'string' ? Buffer.from(s, 'utf8') : s)
    .digest('hex');

export function project(files: Record<string, string>): { dir: string; file: (rel?: string) => string } {
  const dir = tempDir(files);
  return { dir, file: (rel = 'f.txt') => fs.readFileSync(path.join(dir, rel), 'utf8') };
}

/** Lines of a text split after each "\n" (the last one may have no terminator). */
function linesOf(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    if (nl === -1) {
      out.push(text.slice(at));
      break;
    }
    out.push(text.slice(at, nl + 1));
    at = nl + 1;
  }
  return out;
}

/**
 * Applies a unified diff strictly: every hunk exactly at its header's line, context and
 * removed lines equal to the file's bytes (terminators included: "\ No newline" markers
 * honoured), no fuzz, no offset. Returns the new text or a string starting "REFUSED:".
 */
export function applyStrict(old: string, diff: string): string {
  if (diff === '') return old;
  const rows = diff.split('\n');
  if (rows.at(-1) !== '') return `REFUSED: diff does not end with a newline`;
  rows.pop();
  if (!rows[0]?.startsWith('--- ') || !rows[1]?.startsWith('+++ ')) return 'REFUSED: no file header';
  const oldLines = linesOf(old);
  const out: string[] = [];
  let cursor = 0; // next old line index to copy
  let i = 2;
  while (i < rows.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(rows[i]!);
    if (!m) return `REFUSED: bad hunk header at row ${i}: ${JSON.stringify(rows[i]).slice(0, 80)}`;
    const oStart = Number(m[1]);
    const oCount = m[2] === undefined ? 1 : Number(m[2]);
    const nCount = m[4] === undefined ? 1 : Number(m[4]);
    const start = oCount === 0 ? oStart : oStart - 1;
    if (start < cursor) return `REFUSED: overlapping hunk at row ${i}`;
    if (Number(m[3]) !== (nCount === 0 ? out.length + (start - cursor) : out.length + (start - cursor) + 1))
      return `REFUSED: new start ${m[3]} wrong at row ${i}`;
    while (cursor < start) {
      if (cursor >= oldLines.length) return 'REFUSED: hunk past end';
      out.push(oldLines[cursor++]!);
    }
    i++;
    let seenOld = 0;
    let seenNew = 0;
    while (i < rows.length && !rows[i]!.startsWith('@@ ')) {
      const row = rows[i]!;
      const kind = row[0];
      const noEol = rows[i + 1] === '\\ No newline at end of file';
      const line = row.slice(1) + (noEol ? '' : '\n');
      if (kind === ' ' || kind === '-') {
        if (oldLines[cursor] !== line)
          return `REFUSED: row ${i} ${JSON.stringify(row).slice(0, 60)} vs file line ${cursor + 1} ${JSON.stringify(oldLines[cursor])?.slice(0, 60)}`;
        cursor++;
        seenOld++;
        if (kind === ' ') {
          out.push(line);
          seenNew++;
        }
      } else if (kind === '+') {
        out.push(line);
        seenNew++;
      } else return `REFUSED: bad row ${i}: ${JSON.stringify(row).slice(0, 60)}`;
      i += noEol ? 2 : 1;
    }
    if (seenOld !== oCount || seenNew !== nCount)
      return `REFUSED: hunk counts -${oCount} +${nCount} vs body -${seenOld} +${seenNew}`;
  }
  while (cursor < oldLines.length) out.push(oldLines[cursor++]!);
  return out.join('');
}

/** Problems with a diff payload's fields against its own unifiedDiff text. */
export function countProblems(p: {
  unifiedDiff: string;
  diffLines: number;
  added: number;
  removed: number;
}): string[] {
  const d = p.unifiedDiff;
  const rows = d.split('\n');
  if (rows.at(-1) === '') rows.pop();
  let add = 0;
  let rem = 0;
  for (const r of rows.slice(2)) {
    if (r.startsWith('+')) add++;
    else if (r.startsWith('-')) rem++;
  }
  const errs: string[] = [];
  if (add !== p.added) errs.push(`added ${p.added} but diff has ${add}`);
  if (rem !== p.removed) errs.push(`removed ${p.removed} but diff has ${rem}`);
  if (p.diffLines !== rows.length) errs.push(`diffLines ${p.diffLines} but diff has ${rows.length} lines`);
  return errs;
}

/** One line of text from an alphabet with the awkward characters: lone CR, U+2028/2029, NEL, tabs, astral, BOM-lookalikes. */
export const awkwardLine = fc
  .array(
    fc.constantFrom(
      'a',
      'b',
      'x = 1;',
      '}',
      ' ',
      '\t',
      '\r',
      '\u2028',
      '\u2029',
      '\u0085',
      '\u00a0',
      'é',
      '\u0301',
      '😀',
      '\ufeff',
      '\u200b',
      '“q”',
      '—',
      '\\',
      '@@ -1 +1 @@',
      '--- a',
      '+++ b',
      '+',
      '-',
    ),
    { maxLength: 4 },
  )
  .map((p) => p.join(''));

/** A text: lines with per-line LF / CRLF endings, maybe a BOM, maybe no final newline. */
export const awkwardText = (maxLines = 12) =>
  textArbitrary(awkwardLine, fc.constantFrom('\n', '\n', '\r\n'), maxLines);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
