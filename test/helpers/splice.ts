import { expect } from 'vitest';
import type { TextSplice } from '../../src/edit/text-format.js';

/**
 * An edit's splice says how its new text is the old one with a middle replaced: writers
 * copy the ends from the file's bytes, so a wrong splice would write wrong bytes.
 */
export function expectSplice(
  text: string,
  result: { ok: boolean; newText?: string; splice?: TextSplice },
): void {
  if (!result.ok) return;
  const { head, middle, tail } = result.splice!;
  expect(head + tail).toBeLessThanOrEqual(text.length);
  expect(text.slice(0, head) + middle + text.slice(text.length - tail)).toBe(result.newText);
}

/** A result without its splice (two ways to the same edit may split it differently). */
export function withoutSplice<T extends object>(result: T): Omit<T, 'splice'> {
  const { splice: _, ...rest } = result as T & { splice?: unknown };
  return rest;
}
