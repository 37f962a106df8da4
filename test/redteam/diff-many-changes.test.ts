import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDiff, cleanup, runGated } from './diff-harness.js';

afterEach(cleanup);

function lcg(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const kinds = [
  (i: number) => `line ${i}`,
  (i: number) => (i % 7 === 0 ? `fn${i}() {` : i % 3 ? '}' : ''),
  (i: number) => (i % 2 ? '' : '}'),
  (i: number) => `línea ${i % 50}`,
  (i: number) => `${'z'.repeat(4090)}${i % 10}`,
  (i: number) => (i % 5 ? 'same' : `u${i}`),
];

describe('many scattered changes (walk, NEAR/FAR resync, anchors): payload diff == write, headers exact', () => {
  it('generated', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1e9 }),
        fc.nat(kinds.length - 1),
        fc.integer({ min: 2000, max: 60000 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom('\n', '\r\n'),
        fc.constantFrom(1, 5, 70, 9000),
        async (seed, kind, n, changes, eol, blk) => {
          const rnd = lcg(seed);
          const f = kinds[kind]!;
          const nn = kind === 4 ? Math.min(n, 6000) : n;
          const a: string[] = [];
          for (let i = 0; i < nn; i++) a.push(f(i));
          const b = a.slice();
          for (let c = 0; c < changes; c++) {
            const at = Math.floor(rnd() * (b.length + 1));
            const len = 1 + Math.floor(rnd() * blk);
            const r = rnd();
            if (r < 0.33) b.splice(at, len);
            else if (r < 0.66)
              b.splice(
                at,
                0,
                ...Array.from({ length: Math.min(len, 200) }, (_, k) => f(Math.floor(rnd() * nn) + k)),
              );
            else b.splice(at, Math.min(len, 3), `chg${c}`);
          }
          const before = a.join(eol) + eol;
          const after = b.join(eol) + (rnd() < 0.5 ? eol : '');
          const r = await runGated(before, 'write_file', { content: after });
          if (!r.outcome.ok) return;
          expect(r.after).toBe(after);
          expect(checkDiff(r)).toEqual([]);
          cleanup();
        },
      ),
      { numRuns: 60 },
    );
  }, 400_000);
});
