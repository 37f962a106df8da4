import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDiff, cleanup, runGated } from './diff-harness.js';

afterEach(cleanup);

describe('patch_file on periodic low-entropy files: a hunk lands at its @@ line or is refused', () => {
  it('generated', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', '  }', 'x'), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 3, max: 60 }),
        fc.nat(),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom('rep', 'ins', 'del'),
        fc.integer({ min: -5, max: 5 }),
        async (period, reps, at, ctx, kind, headerShift) => {
          const lines: string[] = [];
          for (let r = 0; r < reps; r++) lines.push(...period);
          const k = at % lines.length;
          const before = `${lines.join('\n')}\n`;
          const after = lines.slice();
          if (kind === 'rep') after.splice(k, 1, 'CHANGED');
          else if (kind === 'ins') after.splice(k, 0, 'CHANGED');
          else after.splice(k, 1);
          const s = Math.max(0, k - ctx);
          const e = Math.min(lines.length, k + (kind === 'ins' ? 0 : 1) + ctx);
          const body: string[] = [];
          for (let q = s; q < k; q++) body.push(` ${lines[q]}`);
          if (kind !== 'ins') body.push(`-${lines[k]}`);
          if (kind !== 'del') body.push('+CHANGED');
          for (let q = k + (kind === 'ins' ? 0 : 1); q < e; q++) body.push(` ${lines[q]}`);
          const oldN = e - s;
          const newN = oldN + (kind === 'ins' ? 1 : kind === 'del' ? -1 : 0);
          if (oldN === 0) return;
          const hdr = `@@ -${s + 1 + headerShift},${oldN} +${s + 1 + headerShift},${newN} @@`;
          const ud = `--- a/f.txt\n+++ b/f.txt\n${hdr}\n${body.join('\n')}\n`;
          const sha = crypto.createHash('sha256').update(before).digest('hex');
          const r = await runGated(before, 'patch_file', { unified_diff: ud, base_sha256: sha });
          if (!r.outcome.ok) {
            expect(r.after).toBe(before);
            return;
          }
          expect(checkDiff(r)).toEqual([]);
          const intended = `${after.join('\n')}\n`;
          // Applied: either at the line the hunk names (exact header), or, when the header was off, at a
          // place its lines match — but then that place must be the only one (otherwise: invalid_diff).
          if (headerShift === 0)
            expect(r.after).toBe(intended === '\n' && after.length === 0 ? '' : intended);
          else {
            // count the places the hunk's old lines match
            const old = body.filter((l) => l[0] !== '+').map((l) => l.slice(1));
            let places = 0;
            for (let p = 0; p + old.length <= lines.length; p++)
              if (old.every((l, q) => lines[p + q] === l)) places++;
            expect(places, `relocated hunk applied though its lines match ${places} places: ${ud}`).toBe(1);
            expect(r.after).toBe(intended);
          }
          cleanup();
        },
      ),
      { numRuns: 400 },
    );
  }, 300_000);
});
