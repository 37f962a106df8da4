import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDiff, cleanup, runGated } from './diff-harness.js';

afterEach(cleanup);

/** What a plain str-replace-all does (non-overlapping, left to right). */
function replaceAllPlain(text: string, a: string, b: string): string {
  return text.split(a).join(b);
}

describe('edit_file replace_all on low-entropy text: adjacent / overlapping matches', () => {
  it('exact matches: the write is a plain replace-all and the diff says so', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', 'a', 'aa', '😀', 'é'), { minLength: 1, maxLength: 200 }),
        fc.constantFrom('\n', '\r\n'),
        fc.array(fc.constantFrom('}', '', 'a'), { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom('}', '', 'b', 'a', '😀'), { minLength: 0, maxLength: 3 }),
        fc.boolean(),
        async (lines, eol, oldL, newL, finalNl) => {
          let text = lines.join(eol);
          if (finalNl) text += eol;
          const old = oldL.join(eol);
          const nu = newL.join(eol);
          if (!old || old === nu || !text.includes(old)) return;
          const r = await runGated(text, 'edit_file', { old_string: old, new_string: nu, replace_all: true });
          (globalThis as any).__st ??= {};
          const k = r.outcome.ok ? (r.payload as any).matchLevel : r.outcome.error.code;
          (globalThis as any).__st[k] = ((globalThis as any).__st[k] ?? 0) + 1;
          if (!r.outcome.ok) return;
          const p = r.payload as any;
          expect(checkDiff(r)).toEqual([]);
          if (p.matchLevel === 'exact') {
            // a file with no line break has no CRLF style: new text's line ends follow the file (LF)
            expect(r.after).toBe(
              replaceAllPlain(text, old, text.includes('\n') ? nu : nu.replace(/\r\n/g, '\n')),
            );
            expect(p.matchCount).toBe(text.split(old).length - 1);
          }
          cleanup();
        },
      ),
      { numRuns: 400 },
    );
  }, 300_000);
});
