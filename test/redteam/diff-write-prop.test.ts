import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDiff, cleanup, runGated } from './diff-harness.js';

afterEach(cleanup);

const long = (n: number, tail: string) => 'x'.repeat(n) + tail;
const lineArb = fc.oneof(
  fc.constantFrom(
    '',
    '}',
    '  }',
    'a',
    'b',
    'a ',
    '\t}',
    'é',
    '😀',
    'a\u2028b',
    '\u2029',
    'x\ry',
    '\uFEFF',
    'ß',
    '\u0301',
  ),
  fc.constantFrom(
    long(4095, 'A'),
    long(4095, 'B'),
    long(4096, 'A'),
    long(4096, 'B'),
    long(8191, 'A'),
    long(8191, 'B'),
    long(8192, 'C'),
  ),
  fc.string({ unit: 'grapheme', maxLength: 6 }).filter((s) => !/[\r\n\0]/.test(s)),
);
const eolArb = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');

function join(lines: Array<[string, string]>, bom: boolean, finalNl: boolean): string {
  let t = lines.map(([l, e]) => l + e).join('');
  if (!finalNl && lines.length) t = t.slice(0, -lines.at(-1)![1].length);
  return (bom ? '\uFEFF' : '') + t;
}

const pairArb = fc
  .record({
    old: fc.array(fc.tuple(lineArb, eolArb), { maxLength: 30 }),
    ops: fc.array(fc.tuple(fc.nat(), fc.constantFrom('ins', 'del', 'rep'), fc.tuple(lineArb, eolArb)), {
      maxLength: 6,
    }),
    bom1: fc.boolean(),
    bom2: fc.boolean(),
    nl1: fc.boolean(),
    nl2: fc.boolean(),
  })
  .map(({ old, ops, bom1, bom2, nl1, nl2 }) => {
    const nu = old.slice();
    for (const [i, op, l] of ops) {
      const k = nu.length ? i % (nu.length + 1) : 0;
      if (op === 'ins') nu.splice(k, 0, l);
      else if (op === 'del') nu.splice(k, 1);
      else nu.splice(k, 1, l);
    }
    return { before: join(old, bom1, nl1), after: join(nu, bom2, nl2) };
  });

describe('write_file payload diff == the write', () => {
  it('random texts (CRLF/CR/BOM/no final NL/long lines/U+2028/non-BMP)', async () => {
    await fc.assert(
      fc.asyncProperty(pairArb, async ({ before, after }) => {
        const r = await runGated(before, 'write_file', { content: after });
        if (!r.outcome.ok) return; // refused calls change nothing
        expect(r.after).toBe(after);
        expect(checkDiff(r)).toEqual([]);
        cleanup();
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
