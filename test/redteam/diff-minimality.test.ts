import { diffArrays } from 'diff';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDiff, cleanup, runGated } from './diff-harness.js';

afterEach(cleanup);

/** Minimal changed-line count, by the diff package's Myers (fine for small edit distances). */
function minimal(a: string[], b: string[]): number {
  let n = 0;
  for (const c of diffArrays(a, b)) if (c.added || c.removed) n += c.count ?? 0;
  return n;
}

function lcg(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function scenario(seed: number, n: number, alphabet: string[], rate: number) {
  const rnd = lcg(seed);
  const a: string[] = [];
  for (let i = 0; i < n; i++) a.push(alphabet[Math.floor(rnd() * alphabet.length)]!);
  const b: string[] = [];
  for (const l of a) {
    const r = rnd();
    if (r < rate / 2) continue;
    b.push(l);
    if (r > 1 - rate / 2) b.push(alphabet[Math.floor(rnd() * alphabet.length)]!);
  }
  return { a, b, before: `${a.join('\n')}\n`, after: `${b.join('\n')}\n` };
}

describe('the diff shows only what changes: files of only } and blank lines, ~1% scattered edits', () => {
  it('20,000 lines of } / blank, 1% indels: shown change stays near the real one', async () => {
    const { a, b, before, after } = scenario(5, 20_000, ['}', ''], 0.01);
    const r = await runGated(before, 'write_file', { content: after });
    expect(checkDiff(r)).toEqual([]);
    const p = r.payload as any;
    const min = minimal(a, b);
    // min = 196 lines (<1%); observed: 8,844 changed lines shown (44% of the file), not flagged coarse
    expect({ shown: p.added + p.removed, coarse: p.diffCoarse }).toEqual({ shown: expect.any(Number), coarse: false });
    expect(p.added + p.removed).toBeLessThanOrEqual(3 * min + 20);
  }, 60_000);

  it('generated: 2–3 low-entropy line kinds, 5k–20k lines, 0.2–2% indels', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 5000, max: 20000 }),
        fc.constantFrom(['}', ''], ['}', '', '  }'], ['', '\t'], ['a', 'b'], ['é', 'e']),
        fc.constantFrom(0.002, 0.005, 0.01, 0.02),
        async (seed, n, alphabet, rate) => {
          const { a, b, before, after } = scenario(seed, n, alphabet, rate);
          const r = await runGated(before, 'write_file', { content: after });
          expect(checkDiff(r)).toEqual([]);
          const p = r.payload as any;
          const min = minimal(a, b);
          expect(p.added + p.removed, `n=${n} min=${min} coarse=${p.diffCoarse}`).toBeLessThanOrEqual(3 * min + 20);
          cleanup();
        },
      ),
      { numRuns: 15 },
    );
  }, 300_000);

  it('1,000,000 lines of } / blank, 1% indels: never (nearly) the whole file', async () => {
    const { before, after } = scenario(1, 1_000_000, ['}', ''], 0.01);
    const r = await runGated(before, 'write_file', { content: after });
    const p = r.payload as any;
    // observed: diffCoarse true with ~1,016,000 diff lines (the whole file) for a ~1% change
    expect(p.diffLines).toBeLessThan(200_000);
  }, 120_000);
});
