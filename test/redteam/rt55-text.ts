// rt55: text generators (no vitest: child scripts import this too).
import { createHash } from 'node:crypto';
import { seededRandom } from '../helpers/seeded-rng.js';

export const MiB = 1 << 20;

export const sha = (s: string | Buffer): string =>
  createHash('sha256')
    .update(typeof s === 'string' ? Buffer.from(s, 'utf8') : s)
    .digest('hex');

/** Deterministic pseudo-random generator (the project's seeded one). */
export const rng = seededRandom;

export interface Shape {
  /** 'ascii' | 'latin' (é etc.) | 'astral' (emoji) */
  chars: 'ascii' | 'latin' | 'astral';
  eol: '\n' | '\r\n';
  bom: boolean;
  finalNewline: boolean;
  /** Approximate line length in characters. */
  lineLen: number;
}

/**
 * A text of exactly `bytes` UTF-8 bytes in the given shape, with unique markers
 * `<<Mnnnnn>>` on some lines (one every `markEvery` lines) so edits can target them.
 */
export function bigText(bytes: number, shape: Shape, seed = 1, markEvery = 97): string {
  const r = rng(seed);
  const alpha =
    shape.chars === 'ascii'
      ? 'abcdefghij klmnop = ;{}()'
      : shape.chars === 'latin'
        ? 'abcdé fghñ ü={}'
        : 'abc😀 d€f 𝄞={}';
  const parts: string[] = [];
  let size = shape.bom ? 3 : 0;
  const eolBytes = shape.eol.length;
  let line = 0;
  const room = () => bytes - size;
  while (room() > 0) {
    let text = line % markEvery === 0 ? `<<M${String(line).padStart(6, '0')}>>` : '';
    const want = Math.max(1, Math.floor(shape.lineLen * (0.5 + r())));
    const chars = [...alpha];
    let tb = Buffer.byteLength(text);
    const pieces = [text];
    while (tb < want) {
      const ch = chars[Math.floor(r() * chars.length)]!;
      pieces.push(ch);
      tb += Buffer.byteLength(ch);
    }
    text = pieces.join('');
    const b = tb + eolBytes;
    if (b > room()) {
      // last line: fill exactly with ASCII
      const need = room() - (shape.finalNewline ? eolBytes : 0);
      if (need <= 0) {
        // only the line end fits (or nothing): end with it
        parts.push(shape.finalNewline ? shape.eol.slice(0, room()) : 'x'.repeat(room()));
        size = bytes;
        break;
      }
      text = tb >= need ? cutToBytes(text, need) : text + 'z'.repeat(need - tb);
      parts.push(text + (shape.finalNewline ? shape.eol : ''));
      size = bytes;
      break;
    }
    parts.push(text + shape.eol);
    size += b;
    line++;
    if (room() === 0 && !shape.finalNewline) {
      // the last line end must go: replace it with one more ASCII char
      const last = parts.pop()!;
      parts.push(`${last.slice(0, -eolBytes)}${'q'.repeat(eolBytes)}`);
    }
  }
  const out = (shape.bom ? '\ufeff' : '') + parts.join('');
  if (Buffer.byteLength(out) !== bytes) throw new Error(`bigText: ${Buffer.byteLength(out)} != ${bytes}`);
  return out;
}

function cutToBytes(text: string, n: number): string {
  const b = Buffer.from(text).subarray(0, n);
  let out = b.toString('utf8');
  // a character cut in two decodes as U+FFFD: drop it and pad with ASCII
  while (out.endsWith('\ufffd')) out = out.slice(0, -1);
  return out + 'z'.repeat(n - Buffer.byteLength(out));
}

/** The text as read_file shows it: no BOM, LF line ends. */
export const modelText = (text: string): string => text.replace(/^\ufeff/, '').replaceAll('\r\n', '\n');

export function strip(content: string, hashed: boolean): string {
  if (!hashed) return content;
  return content
    .split('\n')
    .map((l) => l.replace(/^\d+#[0-9a-f]+\|/, ''))
    .join('\n');
}

export const SHAPES: Array<[string, Shape]> = [
  ['ascii LF final', { chars: 'ascii', eol: '\n', bom: false, finalNewline: true, lineLen: 60 }],
  ['ascii CRLF nofinal', { chars: 'ascii', eol: '\r\n', bom: false, finalNewline: false, lineLen: 60 }],
  ['ascii LF BOM', { chars: 'ascii', eol: '\n', bom: true, finalNewline: true, lineLen: 40 }],
  ['latin CRLF BOM nofinal', { chars: 'latin', eol: '\r\n', bom: true, finalNewline: false, lineLen: 80 }],
  ['astral LF final', { chars: 'astral', eol: '\n', bom: false, finalNewline: true, lineLen: 50 }],
  ['ascii long lines', { chars: 'ascii', eol: '\n', bom: false, finalNewline: false, lineLen: 200_000 }],
  ['ascii short lines', { chars: 'ascii', eol: '\n', bom: false, finalNewline: true, lineLen: 2 }],
];
