// rt32: payload placement for patch_file with several change groups, and edit_file replace_all.
// The known region spans first..last change; between change groups the diff slides over equal lines.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  applyLineOps,
  applyShown,
  checkAgainstTruth,
  cleanup,
  type LineOp,
  runGated,
  scriptOf,
  type Tagged,
  unifiedOf,
} from './rt32-harness.js';

afterEach(cleanup);
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

const opArb = fc.record({
  line: fc.nat(),
  kind: fc.constantFrom('replace', 'insert_after', 'insert_before', 'delete'),
  content: fc.constantFrom('}', '', 'x', 'N'),
});
function dedupe(raw: any[], n: number): LineOp[] {
  const seen = new Set<number>();
  return raw.map((r) => ({ ...r, line: r.line % n })).filter((r) => !seen.has(r.line) && !!seen.add(r.line));
}

async function patch(lines: string[], ops: LineOp[], ctx: number) {
  const before = `${lines.join('\n')}\n`;
  const udiff = unifiedOf(scriptOf(lines, ops), ctx);
  const r = await runGated(before, 'patch_file', { unified_diff: udiff, base_sha256: sha(before) });
  const truth = applyLineOps(lines, ops);
  return {
    r,
    udiff,
    truth,
    before,
    expected: truth.length ? `${truth.map((t) => t.text).join('\n')}\n` : '',
  };
}

describe('rt32 patch_file placement', () => {
  // BREAK: file "a\nb\n}\nc\n"; the model's (correct, exactly placed) diff:
  //   @@ -1,4 +1,5 @@ -a +A  b  } +}  c
  // The payload's unifiedDiff ("the corrected diff that will be applied") shows the "}" added
  // BEFORE line 3 ( -a +A  b +}  }  c ), not after it as the hunk says.
  it('a second change in one hunk is shown where the hunk puts it', async () => {
    const lines = ['a', 'b', '}', 'c'];
    const { r, truth } = await patch(
      lines,
      [
        { kind: 'replace', line: 0, content: 'A' },
        { kind: 'insert_after', line: 2, content: '}' },
      ],
      1,
    );
    expect(r.outcome.ok).toBe(true);
    expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
  });

  // BREAK: "A", 20 x "}", "B"; two hunks: " A -}" (delete the line after A) and " } -B +BB".
  // Shown: one hunk at lines 18-22 deleting the LAST "}" of the run and changing B.
  it('two hunks: the deletion anchored after A is shown after A', async () => {
    const lines = ['A', ...Array(20).fill('}'), 'B'];
    const before = `${lines.join('\n')}\n`;
    const r = await runGated(before, 'patch_file', {
      base_sha256: sha(before),
      unified_diff: '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,1 @@\n A\n-}\n@@ -21,2 +20,2 @@\n }\n-B\n+BB\n',
    });
    expect(r.outcome.ok).toBe(true);
    const truth: Tagged[] = lines.map((text, i) => ({ orig: i, text })).filter((t) => t.orig !== 1);
    truth[truth.length - 1] = { orig: -1, text: 'BB' };
    expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
  });

  it('property (held): one change group is shown at its place; bytes always right', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', '}', 'x', 'a', 'b', 'c'), { minLength: 3, maxLength: 30 }),
        opArb,
        fc.integer({ min: 1, max: 3 }),
        async (lines, raw, ctx) => {
          const ops = dedupe([raw], lines.length);
          const { r, truth, before, expected } = await patch(lines, ops, ctx);
          if (!r.outcome.ok) {
            expect(r.outcome.error.code).toBe('invalid_diff');
            return;
          }
          expect(r.after).toBe(expected);
          if (r.after === before) return;
          expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after);
          expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it('property (breaks): 2-3 change groups are each shown where the diff puts them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', '}', 'x', 'a', 'b', 'c'), { minLength: 3, maxLength: 30 }),
        fc.array(opArb, { minLength: 2, maxLength: 3 }),
        fc.integer({ min: 1, max: 3 }),
        async (lines, raw, ctx) => {
          const ops = dedupe(raw, lines.length);
          const { r, truth, before, expected } = await patch(lines, ops, ctx);
          if (!r.outcome.ok) return;
          expect(r.after).toBe(expected);
          if (r.after === before) return;
          expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after);
          expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
        },
      ),
      {
        numRuns: 200,
        examples: [
          [
            ['a', 'b', '}', 'c'],
            [
              { line: 0, kind: 'replace', content: 'A' },
              { line: 2, kind: 'insert_after', content: '}' },
            ],
            1,
          ],
        ],
      },
    );
  }, 120_000);
});

describe('rt32 edit_file replace_all placement', () => {
  // BREAK: "T", 20 x "}", "T"; replace_all "T\n" -> "T\n}\n" inserts a "}" after each T.
  // Shown: "+}" before the second T (end of the run) and "+}" after it; nothing after line 1.
  it('each replacement is shown at its match', async () => {
    const lines = ['T', ...Array(20).fill('}'), 'T'];
    const r = await runGated(`${lines.join('\n')}\n`, 'edit_file', {
      old_string: 'T\n',
      new_string: 'T\n}\n',
      replace_all: true,
    });
    expect(r.outcome.ok).toBe(true);
    const truth: Tagged[] = [];
    lines.forEach((text, i) => {
      truth.push({ orig: i, text });
      if (text === 'T') truth.push({ orig: -1, text: '}' });
    });
    expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
  });

  it('property (held): single match (no replace_all) whole-line replacement shown at the match', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', '}', 'x', 'T'), { minLength: 3, maxLength: 30 }),
        fc.array(fc.constantFrom('}', '', 'x', 'T', 'N'), { maxLength: 3 }),
        fc.array(fc.constantFrom('}', '', 'x', 'N'), { maxLength: 3 }),
        async (lines, pre, post) => {
          if (lines.filter((l) => l === 'T').length !== 1) return;
          const newLines = [...pre, 'T2', ...post];
          const before = `${lines.join('\n')}\n`;
          const r = await runGated(before, 'edit_file', {
            old_string: 'T\n',
            new_string: `${newLines.join('\n')}\n`,
          });
          expect(r.outcome.ok).toBe(true);
          const truth: Tagged[] = [];
          lines.forEach((l, i) => {
            if (l === 'T') for (const t of newLines) truth.push({ orig: -1, text: t });
            else truth.push({ orig: i, text: l });
          });
          expect(r.after).toBe(`${truth.map((t) => t.text).join('\n')}\n`);
          expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after);
          expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);
});
