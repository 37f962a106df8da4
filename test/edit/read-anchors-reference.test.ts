import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finish32, hash32 } from '../../src/edit/line-hash.js';
import { readAnchors, versionSalt } from '../../src/edit/read-anchors.js';

const mix = (a: number, b: number) =>
  finish32(Math.imul(a ^ 0x9e3779b9, 0x01000193) ^ Math.imul(b, 0x5bd1e995));
const EMPTY = hash32('');

/** readAnchors as its doc states it, line by line with plain scans (quadratic: small inputs only). */
function reference(hashes: number[]): number[] {
  const version = versionSalt(Uint32Array.from(hashes));
  const prefixCount = (p: number) => hashes.filter((h) => h >>> 8 === p).length;
  const twins = hashes.map((h, i) => (prefixCount(h >>> 8) > 1 ? i : -1)).filter((i) => i >= 0);
  const context = new Map<number, number>();
  for (const i of twins) {
    const before = hashes.slice(0, i).findLast((h) => h !== EMPTY) ?? EMPTY;
    const after = hashes.slice(i + 1).find((h) => h !== EMPTY) ?? EMPTY;
    context.set(i, mix(mix(mix(before, hashes[i]!), after), version));
  }
  const contexts = [...context.values()];
  // Position anchors, line by line, avoid every line's own prefix, every twin's context
  // prefix and every earlier position anchor's (salted 1, 2, … 64; else salt 0).
  const taken = new Set([...hashes.map((h) => h >>> 8), ...contexts.map((c) => c >>> 8)]);
  return hashes.map((h, i) => {
    const c = context.get(i);
    if (c === undefined) return h;
    const unique = contexts.filter((x) => x >>> 8 === c >>> 8).length === 1 && prefixCount(c >>> 8) === 0;
    if (unique) return c;
    const first = mix(mix(h, i + 1), version);
    let anchor = first;
    for (let salt = 1; salt <= 64 && taken.has(anchor >>> 8); salt++) anchor = mix(first, salt);
    if (taken.has(anchor >>> 8)) anchor = first;
    taken.add(anchor >>> 8);
    return anchor;
  });
}

describe('readAnchors against its statement', () => {
  it('gives every line the anchor the plain line-by-line definition gives it', () => {
    // Few distinct hashes and runs of blank lines (at the ends too): the nearest non-empty neighbours matter.
    const line = fc.oneof(
      { weight: 3, arbitrary: fc.constant(EMPTY) },
      { weight: 4, arbitrary: fc.nat({ max: 12 }).map((k) => Math.imul(k + 1, 2654435761) >>> 0) },
      { weight: 1, arbitrary: fc.nat().map((k) => Math.imul(k, 0x85ebca6b) >>> 0) },
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 120 }), fc.boolean(), (lines, direct) => {
        const hashes = Uint32Array.from(lines);
        const expected = reference(lines);
        expect([...readAnchors(hashes, direct ? 0 : Number.POSITIVE_INFINITY)]).toEqual(expected);
      }),
      { numRuns: 600 },
    );
  });

  it('salts a position anchor that another line already holds, as the statement says', () => {
    // Twins in twin surroundings get position anchors; lines appended at the end hold, as their own
    // hash, the unsalted position anchor of some of them (and of each other), so salting must act.
    const twin = fc.constantFrom(EMPTY, Math.imul(7, 2654435761) >>> 0);
    fc.assert(
      fc.property(
        fc.array(twin, { minLength: 2, maxLength: 60 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (lines, picks, direct) => {
          const taken = picks.map((p) => mix(lines[p % lines.length]!, (p % lines.length) + 1));
          const all = [...lines, ...taken, ...taken.map((t) => mix(t, 1))];
          const expected = reference(all);
          const shown = readAnchors(Uint32Array.from(all), direct ? 0 : Number.POSITIVE_INFINITY);
          expect([...shown]).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('shows no anchor twice in a read, whatever the twins (a few thousand position anchors)', () => {
    const twin = fc.constantFrom(EMPTY, Math.imul(3, 2654435761) >>> 0, Math.imul(5, 2654435761) >>> 0);
    fc.assert(
      fc.property(fc.array(twin, { minLength: 2000, maxLength: 6000 }), fc.boolean(), (lines, direct) => {
        const shown = readAnchors(Uint32Array.from(lines), direct ? 0 : Number.POSITIVE_INFINITY);
        expect(new Set([...shown].map((a) => a >>> 8)).size).toBe(lines.length);
      }),
      { numRuns: 30 },
    );
  });
});
