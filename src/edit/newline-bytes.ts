/**
 * Newlines (LF bytes) in bytes[from, to), four bytes at a time: each 32-bit word is
 * tested for LF bytes by carry-free arithmetic (SWAR) and the hits summed by one
 * multiply. On a small VM a string's charCodeAt loop costs ~7 ns a character and a
 * byte loop ~2 ns; this ~0.7 ns, which is what counting lines to a match in a big
 * file of short lines (a run of `}`) comes down to.
 */
export function countNewlineBytes(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  let i = from;
  // Single bytes up to a 4-byte boundary of the underlying memory (a word view needs one).
  while (i < to && (bytes.byteOffset + i) & 3) if (bytes[i++] === 10) count++;
  const words = (to - i) >> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      const x = view[k]! ^ 0x0a0a0a0a; // an LF byte becomes 0
      // 0x80 in each byte that is 0: the low seven bits plus 0x7f carry into bit 7 unless
      // all zero, and the byte's own bit 7 rules out the rest (no carry crosses bytes).
      const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f) & 0x80808080;
      // One bit per byte moved to the bottom of each byte, then the four summed into the top byte.
      count += Math.imul(zero >>> 7, 0x01010101) >>> 24;
    }
    i += words << 2;
  }
  while (i < to) if (bytes[i++] === 10) count++;
  return count;
}
