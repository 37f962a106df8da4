/**
 * A long string in consecutive slices of at most `size` UTF-16 units, never cutting
 * a surrogate pair in two (each half alone would encode as U+FFFD, or be escaped as
 * \udxxx by JSON): hashing, encoding or escaping the slices gives exactly what doing
 * it to the whole string gives, without a whole-string copy.
 */
export function* textSlices(text: string, size: number): Generator<string> {
  for (let at = 0; at < text.length; ) {
    const end = boundaryAtOrBefore(text, Math.min(text.length, at + size));
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * `at`, or `at - 1` when `at` falls between the two halves of a surrogate pair: a cut
 * there keeps whole characters on both sides (a lone half is ill-formed text).
 */
export function boundaryAtOrBefore(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const before = text.charCodeAt(at - 1);
  return before >= 0xd800 && before <= 0xdbff ? at - 1 : at;
}
