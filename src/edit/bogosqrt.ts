/** git xdiff's bogosqrt: 2^(⌊log₄ n⌋ + 1), between √n and twice that, for n > 0 (1 for 0). */
export function bogosqrt(n: number): number {
  let bound = 1;
  for (let m = n; m > 0; m = Math.floor(m / 4)) bound *= 2;
  return bound;
}
