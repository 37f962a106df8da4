import crypto from 'node:crypto';
import { applyPatch, structuredPatch } from 'diff';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDiff, cleanup, runGated, strictHunks } from './diff-harness.js';

afterEach(cleanup);

const bodyArb = fc.constantFrom(
  '}',
  '',
  'x = 1;',
  'y = “q”;',
  'z — w',
  'a…',
  'b\u00a0c',
  'é',
  '😀 x',
  'if (a) {',
  'x = 1;',
);
const indentArb = fc.constantFrom('', '', '  ', '    ', '\t', '\t\t', ' \t');
const trailArb = fc.constantFrom('', '', '', ' ', '\t', '  ');
const eolArb = fc.constantFrom('\n', '\n', '\r\n');
const fileArb = fc.record({
  lines: fc.array(fc.tuple(indentArb, bodyArb, trailArb), { minLength: 1, maxLength: 25 }),
  eol: eolArb,
  mixed: fc.boolean(),
  bom: fc.boolean(),
  finalNl: fc.boolean(),
  start: fc.nat(),
  len: fc.integer({ min: 1, max: 5 }),
  perturb: fc.constantFrom('none', 'trail', 'indent', 'unicode'),
  changes: fc.array(fc.tuple(fc.nat(), fc.constantFrom('rep', 'ins', 'del'), bodyArb), {
    minLength: 1,
    maxLength: 3,
  }),
});

function perturbLine(l: string, how: string): string {
  if (how === 'trail') return l.replace(/[ \t]+$/, '');
  if (how === 'indent') return l.replace(/^[ \t]*/, '  ');
  if (how === 'unicode')
    return l
      .replace(/[“”]/g, '"')
      .replace(/—/g, '-')
      .replace(/…/g, '...')
      .replace(/\u00a0/g, ' ');
  return l;
}

function build(f: any) {
  const raw = f.lines.map(([i, b, t]: [string, string, string]) => i + b + t);
  const eols = raw.map((_: string, k: number) => (f.mixed && k % 2 ? '\r\n' : f.eol));
  let text = raw.map((l: string, k: number) => l + eols[k]).join('');
  if (!f.finalNl) text = text.slice(0, -eols.at(-1).length);
  return { raw, text: (f.bom ? '\uFEFF' : '') + text };
}

describe('edit_file / patch_file: payload diff == write (fuzzy levels, CRLF, BOM)', () => {
  it('edit_file', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (f) => {
        const { raw, text } = build(f);
        const s = f.start % raw.length;
        const win = raw.slice(s, s + f.len).map((l: string) => perturbLine(l, f.perturb));
        const nu = win.slice();
        for (const [pos, op, b] of f.changes) {
          const k = pos % (nu.length + 1);
          if (op === 'ins') nu.splice(k, 0, b);
          else if (op === 'del') nu.splice(k, 1);
          else nu.splice(k, 1, `${b} changed`);
        }
        const r = await runGated(text, 'edit_file', {
          old_string: win.join('\n'),
          new_string: nu.join('\n'),
        });
        expect(checkDiff(r)).toEqual([]);
        if (r.outcome.ok) {
          // the result's diff describes the change made
          expect(applyPatch(r.before, r.outcome.data.diff, { autoConvertLineEndings: false } as any)).toBe(
            r.after,
          );
          expect(strictHunks(r.before, r.outcome.data.diff)).toEqual([]);
          // lines before the match are untouched
          const ml = (r.payload as any).matchLine as number;
          const pre = raw.slice(0, ml - 1).join('\n');
          const norm = (x: string) => x.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
          expect(norm(r.after).startsWith(pre)).toBe(true);
        }
        cleanup();
      }),
      { numRuns: 400 },
    );
  }, 300_000);

  it('patch_file', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (f) => {
        const { raw, text } = build(f);
        const nu = raw.slice();
        for (const [pos, op, b] of f.changes) {
          const k = pos % (nu.length + 1);
          if (op === 'ins') nu.splice(k, 0, b);
          else if (op === 'del') nu.splice(k, 1);
          else nu.splice(k, 1, `${b} changed`);
        }
        const sp = structuredPatch('f', 'f', `${raw.join('\n')}\n`, `${nu.join('\n')}\n`, '', '', {
          context: 2,
        });
        if (!sp.hunks.length) return;
        let ud = '--- a/f.txt\n+++ b/f.txt\n';
        for (const h of sp.hunks) {
          ud += `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n`;
          for (const l of h.lines)
            ud += `${l[0] === ' ' || l[0] === '-' ? l[0] + perturbLine(l.slice(1), f.perturb) : l}\n`;
        }
        const sha = crypto.createHash('sha256').update(text).digest('hex');
        const r = await runGated(text, 'patch_file', { unified_diff: ud, base_sha256: sha });
        if (!r.outcome.ok && r.outcome.error.code !== 'invalid_diff')
          throw new Error(`${r.outcome.error.code}: ${r.outcome.error.message}`);
        expect(checkDiff(r)).toEqual([]);
        cleanup();
      }),
      { numRuns: 400 },
    );
  }, 300_000);
});
