/** How a file is laid out, so edits can keep it exactly as it was. */
export interface TextFormat {
  eol: '\n' | '\r\n';
  bom: boolean;
  finalNewline: boolean;
}

const BOM = '\uFEFF';

export function detectTextFormat(text: string): TextFormat {
  const bom = text.startsWith(BOM);
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return { eol: crlf > lf ? '\r\n' : '\n', bom, finalNewline: text.endsWith('\n') };
}

/** Splits off a BOM so algorithms see plain text; `restore` puts it back. */
export function withoutBom(text: string): { body: string; restore: (body: string) => string } {
  if (!text.startsWith(BOM)) return { body: text, restore: (b) => b };
  return { body: text.slice(1), restore: (b) => BOM + b };
}

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
  let out = '';
  for (let i = 0; i < split.lines.length; i++) out += split.lines[i]! + split.terminators[i]!;
  return out;
}

/** 1-based line number of a character offset, given the offsets where lines start. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

export function lineOfOffset(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
