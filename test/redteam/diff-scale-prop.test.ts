import { applyPatch } from 'diff';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDiff, cleanup, runGated } from './diff-harness.js';

afterEach(cleanup);

// Low-entropy alphabets so repeated identical lines surround every change; ASCII and mixed.
const alphabets = [
  ['}', '', '  }', '{'],
  ['', ''],
  ['}', 'é}', '😀', ''],
  ['a'.repeat(5000), `${'a'.repeat(4096)}b${'a'.repeat(903)}`, 'a'],
  ['x', 'x', 'x', 'y'],
  ['a\rb', '\r', '', '}\r', '\u2028'],
  ['😀', '😁', '\uFEFF', '\u0000'.slice(1)],
];

const arb = fc.record({
  alpha: fc.nat(alphabets.length - 1),
  n: fc.integer({ min: 1, max: 20000 }),
  seedLines: fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
  eol: fc.constantFrom('\n', '\r\n', '\r\n', '\n\r'),
  ops: fc.array(
    fc.tuple(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.constantFrom('ins', 'del', 'rep', 'eol'),
      fc.nat(3),
    ),
    {
      minLength: 1,
      maxLength: 8,
    },
  ),
  finalNl: fc.boolean(),
});

describe('big low-entropy files: payload diff applies, counts right, and is small', () => {
  it('write_file', async () => {
    await fc.assert(
      fc.asyncProperty(arb, async ({ alpha, n, seedLines, eol, ops, finalNl }) => {
        const A = alphabets[alpha]!;
        const lines: string[] = [];
        for (let i = 0; i < n; i++) lines.push(A[seedLines[i % seedLines.length]! % A.length]! + eol);
        const nu = lines.slice();
        let bound = 0;
        for (const [pos, op, w] of ops) {
          const k = Math.floor(pos * nu.length);
          const l = A[w % A.length]! + eol;
          if (op === 'ins') nu.splice(k, 0, `NEW${w}${eol}`), (bound += 1);
          else if (op === 'del') nu.splice(k, 1), (bound += 1);
          else if (op === 'rep') nu.splice(k, 1, l), (bound += 2);
          else if (k < nu.length)
            (nu[k] = nu[k]!.replace(/\r?\n$/, eol === '\n' ? '\r\n' : '\n')), (bound += 2);
        }
        let before = lines.join('');
        let after = nu.join('');
        if (!finalNl) {
          before = before.replace(/\r?\n$/, '');
          after = after.replace(/\r?\n$/, '');
          bound += 2;
        }
        const r = await runGated(before, 'write_file', { content: after });
        if (!r.outcome.ok && r.outcome.error.code === 'file_too_large') return cleanup();
        expect(r.outcome.ok).toBe(true);
        expect(r.after).toBe(after);
        expect(checkDiff(r)).toEqual([]);
        const p = r.payload as any;
        if (before !== after && p) {
          // even a coarse diff must describe the real change
          expect(applyPatch(before, p.unifiedDiff, { autoConvertLineEndings: false } as any)).toBe(after);
          if (!p.diffCoarse) expect(p.added + p.removed).toBeLessThanOrEqual(2 * bound + 4);
        }
        cleanup();
      }),
      { numRuns: 80 },
    );
  }, 300_000);
});
