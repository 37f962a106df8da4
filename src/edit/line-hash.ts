import { createHash } from 'node:crypto';

/**
 * Line anchors for edit_lines (hash-anchored seed). A line's hash ignores
 * trailing whitespace, so an editor trimming lines does not invalidate anchors.
 * Base-36-free lowercase hex of SHA-1: stable across runs and platforms.
 */
export function lineHash(line: string, length = 6): string {
  return createHash('sha1').update(line.replace(/\s+$/, '')).digest('hex').slice(0, length);
}

/** Hash of a line together with its previous and next non-empty lines (disambiguates twins). */
export function contextHash(lines: readonly string[], index: number, length = 8): string {
  let prev = '';
  for (let i = index - 1; i >= 0; i--) {
    if (lines[i]!.trim() !== '') {
      prev = lines[i]!.trimEnd();
      break;
    }
  }
  let next = '';
  for (let i = index + 1; i < lines.length; i++) {
    if (lines[i]!.trim() !== '') {
      next = lines[i]!.trimEnd();
      break;
    }
  }
  return createHash('sha1')
    .update(`${prev}\u0000${lines[index]!.trimEnd()}\u0000${next}`)
    .digest('hex')
    .slice(0, length);
}

/** A line is low-entropy when it has no letters or digits ("}", "", "];"). */
export function isLowEntropy(line: string): boolean {
  return !/[\p{L}\p{N}]/u.test(line);
}

/** Renders lines as `LINE#HASH|content` (hashes computed once, here). */
export function renderHashedLines(lines: readonly string[], startLine: number): string {
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    out += `${i === 0 ? '' : '\n'}${startLine + i}#${lineHash(line)}|${line}`;
  }
  return out;
}
