/**
 * `s` with the UTF-16 unit at `at` changed to a different one of the same kind: a surrogate half
 * stays a half of its kind, so a well-formed text stays well-formed (a lone surrogate is refused
 * before any approval is asked, which is not what a one-character change is meant to test).
 */
export function flipChar(s: string, at: number): string {
  const c = s.charCodeAt(at);
  const other = c >= 0xd800 && c <= 0xdfff ? String.fromCharCode(c ^ 1) : c === 0x78 ? 'y' : 'x';
  return s.slice(0, at) + other + s.slice(at + 1);
}
