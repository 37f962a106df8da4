/**
 * `array.splice(start, end - start, ...items)` without spreading `items` into call
 * arguments (which overflows the stack past ~125k items): the tail is moved once
 * and the items are copied in a loop.
 */
export function replaceRange<T>(array: T[], start: number, end: number, items: readonly T[]): void {
  const tail = array.slice(end);
  array.length = start;
  for (const item of items) array.push(item);
  for (const item of tail) array.push(item);
}
