import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonDigest } from '../../src/approval/canonical-json.js';
import { sha256Hex } from '../../src/fs/state-tracker.js';

// A long string is fed to the digest a slice at a time (64 Ki characters), never as one
// JSON string: the digest must be exactly the SHA-256 of canonicalJson, whatever sits
// at a slice boundary (surrogate pairs, lone surrogates, characters JSON escapes).
const piece = fc.constantFrom(
  'a',
  '"',
  '\\',
  '\n',
  '\u0001',
  '\u2028',
  '😀',
  '\ud800',
  '\udc00',
  'é',
  '\u007f',
);
const longString = fc
  .tuple(
    fc.array(piece, { minLength: 1, maxLength: 12 }),
    fc.integer({ min: 65_530, max: 65_540 }),
    fc.nat(3),
  )
  .map(([pieces, pad, times]) => {
    const filler = 'x'.repeat(pad);
    return Array.from({ length: times + 1 }, () => filler + pieces.join('')).join('');
  });

const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    longString,
    fc.string(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'content', '__proto__', '1', '10', 'é'), tie('node'), {
      maxKeys: 4,
    }),
  ),
})).node;

describe('canonicalJsonDigest', () => {
  it('is the SHA-256 of canonicalJson, for values holding long strings too', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJsonDigest(v)).toBe(sha256Hex(canonicalJson(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a surrogate pair cut by a slice boundary as the pair', () => {
    const v = { content: `${'x'.repeat(65_535)}😀${'y'.repeat(10)}`, path: '/f.txt' };
    expect(canonicalJsonDigest(v)).toBe(sha256Hex(JSON.stringify(v)));
  });
});
