import { applyPatch } from 'diff';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, runGated, strictHunks } from './diff-harness.js';

afterEach(cleanup);

const lineArb = fc.oneof(
  fc.constantFrom(
    '',
    '}',
    'a',
    'b',
    'é',
    '😀',
    'x\ry',
    'a\u2028b',
    `${'x'.repeat(4095)}A`,
    `${'x'.repeat(4096)}B`,
  ),
  fc.integer({ min: 0, max: 50 }).map((i) => `u${i}`),
);
const eolArb = fc.constantFrom('\n', '\n', '\r\n', '\r');

/** With the time budget forced to (almost) nothing, the coarse diff must still be the real change, headers right, counts right. */
describe('coarse diffs (diffTimeBudgetMs 0/1) still describe exactly the write', () => {
  for (const tool of ['write_file', 'edit_file'] as const) {
    it(tool, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(lineArb, eolArb), { minLength: 1, maxLength: 400 }),
          fc.array(fc.tuple(fc.nat(), fc.constantFrom('ins', 'del', 'rep'), fc.tuple(lineArb, eolArb)), {
            minLength: 1,
            maxLength: 10,
          }),
          fc.constantFrom(0, 1),
          fc.boolean(),
          async (old, ops, budget, bom) => {
            const nu = old.slice();
            for (const [i, op, l] of ops) {
              const k = i % (nu.length + 1);
              if (op === 'ins') nu.splice(k, 0, l);
              else if (op === 'del') nu.splice(k, 1);
              else nu.splice(k, 1, l);
            }
            const before = (bom ? '\uFEFF' : '') + old.map(([l, e]) => l + e).join('');
            const after = (bom ? '\uFEFF' : '') + nu.map(([l, e]) => l + e).join('');
            if (before === after) return;
            const args =
              tool === 'write_file'
                ? { content: after }
                : {
                    old_string: before.replace(/^\uFEFF/, ''),
                    new_string: `${after.replace(/^\uFEFF/, '')}\u0000`.slice(0, -1),
                  };
            const r = await runGated(before, tool, args, 'f.txt', { diffTimeBudgetMs: budget });
            if (!r.outcome.ok) return;
            const p = r.payload as any;
            expect(applyPatch(before, p.unifiedDiff, { autoConvertLineEndings: false } as any)).toBe(r.after);
            expect(strictHunks(before, p.unifiedDiff)).toEqual([]);
            let add = 0;
            let rem = 0;
            const ls = p.unifiedDiff.split('\n');
            if (ls.at(-1) === '') ls.pop();
            for (const l of ls.slice(2)) {
              if (l[0] === '+') add++;
              if (l[0] === '-') rem++;
            }
            expect([p.added, p.removed, p.diffLines]).toEqual([add, rem, ls.length]);
            cleanup();
          },
        ),
        { numRuns: 200 },
      );
    }, 300_000);
  }
});
