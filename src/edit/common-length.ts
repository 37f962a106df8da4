/** Characters compared by one native string comparison before narrowing down to single characters. */
const CHUNK = 4096;

/**
 * Length of the common prefix of x[xFrom, xTo) and y[yFrom, yTo): whole chunks
 * compared natively (equal strings compare as memory), then character by character.
 */
export function commonLength(
  x: string,
  xFrom: number,
  xTo: number,
  y: string,
  yFrom: number,
  yTo: number,
): number {
  const max = Math.min(xTo - xFrom, yTo - yFrom);
  let k = 0;
  while (
    k + CHUNK <= max &&
    x.substring(xFrom + k, xFrom + k + CHUNK) === y.substring(yFrom + k, yFrom + k + CHUNK)
  )
    k += CHUNK;
  while (k < max && x.charCodeAt(xFrom + k) === y.charCodeAt(yFrom + k)) k++;
  return k;
}
