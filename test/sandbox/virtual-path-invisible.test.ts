import { describe, expect, it } from 'vitest';
import { splitVirtualPath } from '../../src/sandbox/virtual-path.js';

/** One of each kind the shared visibility rule covers. */
const INVISIBLE = [
  '\u0001',
  '\t',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u00ad',
  '\u034f',
  '\u061c',
  '\u115f',
  '\u1160',
  '\u180e',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u2028',
  '\u202e',
  '\u202f',
  '\u2060',
  '\u2066',
  '\u3000',
  '\u3164',
  '\ufe0f',
  '\ufeff',
  '\uffa0',
  '\u{e0041}',
  '\u{e007f}',
  '\u{e0100}',
  '\ud800',
];

describe('virtual paths: the shared visibility rule', () => {
  it.each(
    INVISIBLE.map((c) => [c.codePointAt(0)!.toString(16).toUpperCase(), c]),
  )('refuses U+%s, naming it', (hex, char) => {
    expect(() => splitVirtualPath(`/src/a${char}b.ts`)).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => splitVirtualPath(`/src/a${char}b.ts`)).toThrow(`U+${hex.padStart(4, '0')}`);
  });

  it('accepts plain Unicode names (accents, CJK, emoji) and ordinary spaces', () => {
    expect(splitVirtualPath('/docs/café 字/😀 notes.md')).toEqual(['docs', 'café 字', '😀 notes.md']);
  });
});
