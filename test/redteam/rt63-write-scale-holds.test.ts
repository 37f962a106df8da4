// rt63 (holds): write_file's approval diff at 100k lines for the shapes that are not dense periodic text —
// two unrelated halves, a reversed quarter, all lines identical with a few changed, a block moved and edited,
// duplicated blocks, changes at the very start and end, unique lines 30% edited — is exact, equals git's counts
// (within 10%), is not coarse, and takes under 1 s.
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../helpers/seeded-rng.js';
import { applies, cleanupRt63, denseEdit, gitCounts, text, writePayload } from './rt63-helpers.js';

afterEach(cleanupRt63);
const N = 100_000;
const U = (p: string) => Array.from({ length: N }, (_, i) => `${p}${i}`);
const SHAPES: Record<string, (r: () => number) => { a: string[]; b: string[] }> = {
  halves: () => ({ a: U('a'), b: [...U('a').slice(0, N / 2), ...U('b').slice(0, N / 2)] }),
  reversedQuarter: () => {
    const a = U('u');
    const b = a.slice();
    b.splice(N / 4, N / 4, ...a.slice(N / 4, N / 2).reverse());
    return { a, b };
  },
  allSame: (r) => {
    const a: string[] = Array(N).fill('x');
    const b = a.slice();
    for (let k = 0; k < 10; k++) b[Math.floor(r() * N)] = 'y';
    b.splice(Math.floor(r() * N), 3);
    return { a, b };
  },
  blockMoveEdit: (r) => {
    const a = U('u');
    const b = a.slice();
    b.splice(N * 0.6, 0, ...b.splice(N / 10, N / 5));
    return { a, b: denseEdit(b, r, 0.05, ['zz']) };
  },
  dupBlocks: (r) => {
    const a = U('u');
    const b = a.slice();
    for (let k = 0; k < 5; k++) {
      const s = Math.floor(r() * N);
      b.splice(Math.floor(r() * b.length), 0, ...a.slice(s, s + 50));
    }
    return { a, b };
  },
  startEnd: () => {
    const a = Array.from({ length: N }, (_, i) => `L${i % 3}`);
    return { a, b: ['new0', ...a.slice(2, -2), 'newEnd'] };
  },
  unique30: (r) => {
    const a = U('u');
    return { a, b: denseEdit(a, r, 0.3, ['n1', 'n2', 'n3']) };
  },
};

describe('rt63 holds: write_file payload at 100k lines, non-periodic shapes', () => {
  for (const [name, make] of Object.entries(SHAPES)) {
    it(`holds: ${name}`, async () => {
      const { a, b } = make(seededRandom(7));
      const before = text(a);
      const after = text(b);
      const p = await writePayload(before, after);
      const g = gitCounts(before, after);
      console.log(name, {
        lib: [p.added, p.removed, p.diffCoarse, Math.round(p.ms)],
        git: [g.added, g.removed],
      });
      expect(applies(before, after, p.unifiedDiff)).toBe(true);
      expect(p.diffCoarse ?? false).toBe(false);
      expect(p.added + p.removed).toBeLessThanOrEqual(1.1 * (g.added + g.removed) + 10);
      expect(p.ms).toBeLessThan(1000);
    }, 60_000);
  }
});
