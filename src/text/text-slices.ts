/**
 * A long string in consecutive slices of at most `size` UTF-16 units, never cutting
 * a surrogate pair in two (each half alone would encode as U+FFFD, or be escaped as
 * \udxxx by JSON): hashing, encoding or escaping the slices gives exactly what doing
 * it to the whole string gives, without a whole-string copy.
 */
export function* textSlices(text: string, size: number): Generator<string> {
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(at, end);
    at = end;
  }
}
