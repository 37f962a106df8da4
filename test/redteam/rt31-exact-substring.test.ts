// rt31: "An exact substring match is a plain replacement ... a missing one gives edit_not_found".
// An old_string that occurs exactly once in the file, byte for byte, must never be reported as not found.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, runTool } from './rt31-harness.js';

afterEach(cleanupAll);

const count = (text: string, s: string) => {
  let n = 0;
  for (let i = text.indexOf(s); i !== -1; i = text.indexOf(s, i + 1)) n++;
  return n;
};

describe('rt31 exact substring is applied, never "not found"', () => {
  const cases: Array<[string, string, string, string]> = [
    // [file, old, new, expected]
    ['let a = b  \nnext\n', 'b', 'c', 'let a = c  \nnext\n'],
    ['let a = b  \nnext\n', '= b', '= c', 'let a = c  \nnext\n'],
    ['  foo(1)  \nx\n', '(1)', '(2)', '  foo(2)  \nx\n'],
    ['\treturn x; \n}\n', 'x;', 'y;', '\treturn y; \n}\n'],
    ['  foo(1)\n', ' foo', ' bar', '  bar(1)\n'],
    ['a\rb  \rc\r', 'b', 'B', 'a\rB  \rc\r'], // CR-only file: one line for the matcher, a line end for the slip check
    ['\uFEFF  x = 1;\n', ' x = 1;', ' x = 2;', '\uFEFF  x = 2;\n'],
  ];
  for (const [file, old, nu, want] of cases) {
    it(`${JSON.stringify(file)}: ${JSON.stringify(old)} → ${JSON.stringify(nu)}`, async () => {
      expect(count(file, old)).toBe(1);
      const r = await runTool(file, 'edit_file', { old_string: old, new_string: nu });
      expect(r.outcome.ok ? 'ok' : `${r.outcome.error.code}: ${r.outcome.error.message}`).toBe('ok');
      expect(r.after).toBe(want);
    });
  }

  it('property: a unique exact substring (with a non-space character) is never edit_not_found', async () => {
    const seen: Array<[string, string]> = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('x = 1;', '  y(2)', '\tz', '}', '', 'a b', 'q'), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.array(fc.constantFrom('', ' ', '  ', '\t'), { minLength: 6, maxLength: 6 }),
        fc.nat(),
        fc.nat(),
        async (lines, trail, a, b) => {
          const text = `${lines.map((l, i) => l + trail[i]).join('\n')}\n`;
          const s = a % text.length;
          const e = s + 1 + (b % Math.min(12, text.length - s));
          const old = text.slice(s, e);
          if (!/[^\s]/.test(old) || count(text, old) !== 1) return;
          const r = await runTool(text, 'edit_file', { old_string: old, new_string: `${old}@` });
          if (!r.outcome.ok && r.outcome.error.code === 'edit_not_found') {
            seen.push([text, old]);
          }
          cleanupAll();
        },
      ),
      { numRuns: 300, seed: 31 },
    );
    expect(seen.slice(0, 5)).toEqual([]);
  }, 120_000);
});
