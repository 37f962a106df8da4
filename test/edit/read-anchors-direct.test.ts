import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hash32 } from '../../src/edit/line-hash.js';
import { readAnchors } from '../../src/edit/read-anchors.js';

describe('readAnchors counting', () => {
  it('gives the same anchors with bucketed counting (big files) as with the hash table', () => {
    const empty = hash32('');
    // Few distinct hashes and many blank lines: twins, shared contexts and position hashes all occur.
    // Prefixes (the top 24 bits) that share a bucket (their top 8 bits) and a word of its
    // bit table (differing in their two low bits), and prefixes in the first and last
    // buckets, next to ones differing only in their bucket.
    const spread = (k: number) => Math.imul(k + 1, 2654435761) >>> 0;
    const line = fc.oneof(
      fc.constant(empty),
      fc.nat({ max: 40 }).map(spread),
      fc
        .tuple(fc.nat({ max: 6 }), fc.nat({ max: 3 }), fc.nat({ max: 255 }))
        .map(([k, low, rest]) => ((spread(k) & ~0x3ff) | (low << 8) | rest) >>> 0),
      fc
        .tuple(fc.constantFrom(0, 1, 254, 255), fc.nat({ max: 3 }), fc.nat({ max: 0xff }))
        .map(([bucket, mid, rest]) => ((bucket << 24) | (mid << 12) | rest) >>> 0),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 400 }), (lines) => {
        const hashes = Uint32Array.from(lines);
        expect(readAnchors(hashes, 0)).toEqual(readAnchors(hashes, Number.POSITIVE_INFINITY));
      }),
      { numRuns: 500 },
    );
  });
});
