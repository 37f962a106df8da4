// rt62 (holds): write_file's approval diff over whole classes of small inputs — periodic text of periods
// 1–6 over low-entropy alphabets, with deletions / insertions / replacements / block moves / reversed
// blocks / duplicated blocks, LF / CRLF / lone-CR / mixed line ends, with or without a final newline,
// empty files — is exact (applies to the old text giving the new one, byte for byte) and never longer
// than the `diff` package's Myers count. Plus 100k-line shapes that held under 1 s.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../helpers/seeded-rng.js';
import { applies, cleanupRt62, gitCounts, myersCounts, text, writePayload } from './rt62-helpers.js';

afterEach(cleanupRt62);

const EOLS = ['\n', '\r\n', '\r'] as const;

const shape = fc.record({
  period: fc.integer({ min: 1, max: 6 }),
  alph: fc.constantFrom(['}', '', '{', '  return;', 'x'], ['a', 'b'], ['a'], ['', ' ', '\t']),
  n: fc.integer({ min: 0, max: 80 }),
  ops: fc.array(
    fc.record({
      k: fc.constantFrom('del', 'ins', 'rep', 'move', 'rev', 'dup'),
      at: fc.nat(),
      len: fc.integer({ min: 1, max: 8 }),
      to: fc.nat(),
      t: fc.constantFrom('}', '', '{', 'x', 'new', 'a', 'b', 'x'.repeat(3000)),
    }),
    { maxLength: 6 },
  ),
  eolA: fc.constantFrom(...EOLS),
  eolB: fc.constantFrom(...EOLS),
  mixedB: fc.boolean(),
  finalA: fc.boolean(),
  finalB: fc.boolean(),
  salt: fc.nat(),
});

type Shape = typeof shape extends fc.Arbitrary<infer T> ? T : never;
function build(g: Shape): { before: string; after: string } {
  const base = Array.from({ length: g.period }, (_, i) => g.alph[(i * 7 + g.salt) % g.alph.length]!);
  const a: string[] = Array.from({ length: g.n }, (_, i) => base[i % g.period]!);
  const b = a.slice();
  for (const op of g.ops) {
    const at = b.length ? op.at % (b.length + 1) : 0;
    if (op.k === 'del') b.splice(at, op.len);
    else if (op.k === 'ins') b.splice(at, 0, ...Array(op.len).fill(op.t));
    else if (op.k === 'rep') b.splice(at, op.len, ...Array(op.len).fill(op.t));
    else if (op.k === 'move') {
      const blk = b.splice(at, op.len);
      b.splice(b.length ? op.to % (b.length + 1) : 0, 0, ...blk);
    } else if (op.k === 'rev') b.splice(at, 0, ...b.splice(at, op.len * 3).reverse());
    else b.splice(at, 0, ...b.slice(at, at + op.len));
  }
  const join = (ls: string[], eol: string, fin: boolean, mixed: boolean) =>
    ls.map((l, i) => l + (i === ls.length - 1 && !fin ? '' : mixed ? EOLS[(i + g.salt) % 3] : eol)).join('');
  return { before: join(a, g.eolA, g.finalA, false), after: join(b, g.eolB, g.finalB, g.mixedB) };
}

describe('rt62 holds: write_file payload diff, small inputs of every shape', () => {
  it('holds: exact and at most the Myers count', async () => {
    await fc.assert(
      fc.asyncProperty(shape, async (g) => {
        const { before, after } = build(g);
        if (before === after) return;
        const p = await writePayload(before, after);
        if (!p.diffCoarse) expect(applies(before, after, p.unifiedDiff)).toBe(true);
        const m = myersCounts(before, after);
        expect(p.added + p.removed).toBeLessThanOrEqual(m.added + m.removed);
      }),
      { numRuns: 250, seed: 62 },
    );
  }, 120_000);

  it('holds: empty ↔ non-empty, and a final newline added / removed only', async () => {
    for (const [before, after, exp] of [
      ['', 'a\n', [1, 0]],
      ['a\n', '', [0, 1]],
      ['a', 'a\n', [1, 1]],
      ['a\r\n', 'a', [1, 1]],
      ['a\nb', 'a\nb\n', [1, 1]],
      ['\n', '', [0, 1]],
      ['', '\r', [1, 0]],
    ] as const) {
      const p = await writePayload(before, after);
      expect(applies(before, after, p.unifiedDiff), JSON.stringify([before, after])).toBe(true);
      expect([p.added, p.removed]).toEqual(exp);
    }
  });
});

describe('rt62 holds: 100k-line shapes — exact, within git count, < 1 s', () => {
  const N = 100_000;
  const shapes: Record<string, () => [string[], string[]]> = {
    'one repeated line, 1% deleted': () => {
      const r = seededRandom(1);
      const a = Array(N).fill('a');
      return [a, a.filter(() => r() > 0.01)];
    },
    'reversed unique lines': () => {
      const a = Array.from({ length: N }, (_, i) => `u${i}`);
      return [a, a.slice().reverse()];
    },
    'a 20k-line block moved to the end': () => {
      const a = Array.from({ length: N }, (_, i) => `u${i}`);
      const b = a.slice();
      b.push(...b.splice(10_000, 20_000));
      return [a, b];
    },
    'halves swapped': () => {
      const a = Array.from({ length: N }, (_, i) => `u${i}`);
      return [a, [...a.slice(N / 2), ...a.slice(0, N / 2)]];
    },
    'every other line changed': () => {
      const a = Array.from({ length: N }, (_, i) => `u${i}`);
      return [a, a.map((l, i) => (i % 2 ? `${l}x` : l))];
    },
    '50-line block repeated, 100 lines changed': () => {
      const r = seededRandom(2);
      const a = Array.from({ length: N }, (_, i) => `b${i % 50}`);
      const b = a.slice();
      for (let k = 0; k < 100; k++) b.splice(Math.floor(r() * b.length), 1, 'CHANGED');
      return [a, b];
    },
  };
  for (const [name, make] of Object.entries(shapes)) {
    it(`holds: ${name}`, async () => {
      const [a, b] = make();
      const before = text(a);
      const after = text(b);
      const p = await writePayload(before, after);
      const g = gitCounts(before, after);
      console.log(name, { lib: [p.added, p.removed], git: [g.added, g.removed], ms: Math.round(p.ms) });
      expect(p.diffCoarse).toBeFalsy();
      expect(applies(before, after, p.unifiedDiff)).toBe(true);
      expect(p.added + p.removed).toBeLessThanOrEqual(g.added + g.removed);
      expect(p.ms).toBeLessThan(1000);
    });
  }
});
