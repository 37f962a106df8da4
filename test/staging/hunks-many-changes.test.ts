import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyHunks, computeHunks } from '../../src/staging/hunks.js';
import { seededRandom } from '../helpers/seeded-rng.js';

const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');

describe('change-set hunks of a big file with many changes', () => {
  it('are one per change (not one block for the file), and every subset applies', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2_000, max: 8_000 }), fc.integer(), (changes, seed) => {
        const r = seededRandom(seed);
        const base = Array.from({ length: 100_000 }, (_, i) => `line ${i}`);
        const staged = base.slice();
        // Changes 20 lines apart at least, so each is its own hunk.
        const step = Math.floor(base.length / changes);
        for (let c = 0; c < changes; c++) staged[c * step + Math.floor(r() * (step - 10))] += ' // edited';
        const hunks = computeHunks('/big.txt', text(base), text(staged));
        expect(hunks.length).toBe(changes);
        const all = new Set(hunks.map((h) => h.id));
        expect(applyHunks(text(base), hunks, all)).toBe(text(staged));
        const some = new Set(hunks.filter(() => r() < 0.5).map((h) => h.id));
        const partial = applyHunks(text(base), hunks, some).split('\n');
        expect(partial.filter((l) => l.endsWith('// edited')).length).toBe(some.size);
      }),
      { numRuns: 4 },
    );
  });

  it('on repeating text with dense edits: exact, and near the edits made', () => {
    const r = seededRandom(11);
    const base = Array.from({ length: 30_000 }, (_, i) => `p${i % 4}`);
    let made = 0;
    const staged = base.flatMap((l) => {
      if (r() >= 0.15) return [l];
      made++;
      return r() < 0.5 ? [] : [`p${Math.floor(r() * 4)}`, l];
    });
    const hunks = computeHunks('/p.txt', text(base), text(staged));
    expect(applyHunks(text(base), hunks, new Set(hunks.map((h) => h.id)))).toBe(text(staged));
    const changed = hunks.reduce((n, h) => n + h.removed.length + h.added.length, 0);
    expect(changed).toBeLessThanOrEqual(1.3 * made);
  });
});
