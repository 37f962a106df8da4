/**
 * A fast, stable 64-bit hash (two independent 32-bit FNV-1a/murmur-mixed lanes) as
 * 16 hex chars. Anchors need stability and spread, not cryptographic strength, and
 * hashing 200,000 lines per read must stay cheap (node:crypto per line is ~20× slower).
 */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35);
  b ^= b >>> 16;
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * Line anchors for edit_lines (hash-anchored seed). A line's hash ignores
 * trailing whitespace, so an editor trimming lines does not invalidate anchors.
 */
export function lineHash(line: string, length = 6): string {
  return length <= 8 ? hash32(line.trimEnd()).slice(0, length) : hash64(line.trimEnd()).slice(0, length);
}

/** The first lane of hash64 alone (its first 8 hex chars), for the common short anchors. */
function hash32(text: string): string {
  let a = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  return (a >>> 0).toString(16).padStart(8, '0');
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
  return hash64(`${prev}\u0000${lines[index]!.trimEnd()}\u0000${next}`).slice(0, length);
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
