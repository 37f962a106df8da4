// rt32: single-site edits on big and low-entropy files, with CRLF / BOM / no final newline (held).
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
  toolLineOp,
  unifiedOf,
} from './rt32-harness.js';

afterEach(cleanup);
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const opArb = fc.record({
  line: fc.nat(),
  kind: fc.constantFrom('replace', 'insert_after', 'insert_before', 'delete'),
  content: fc.constantFrom('}', '', 'x', 'N'),
});

describe('rt32 big files', () => {
  it('100k lines of "}" with one T at the edges or middle: edit_file insert/delete shown where made', async () => {
    const N = 100_000;
    for (const pos of [0, 1, 50_000, N - 2, N - 1]) {
      const lines = Array(N).fill('}');
      lines[pos] = 'T';
      const before = `${lines.join('\n')}\n`;
      for (const [neu, at] of [
        ['T\n}\n', pos + 1],
        ['}\nT\n', pos],
        ['', -1],
      ] as const) {
        const r = await runGated(before, 'edit_file', { old_string: 'T\n', new_string: neu });
        expect(r.outcome.ok).toBe(true);
        const truth: Tagged[] = lines.map((text, i) => ({ orig: i, text }));
        if (at === -1) truth.splice(pos, 1);
        else {
          truth.splice(at, 0, { orig: -1, text: '}' });
          const t = truth.findIndex((x) => x.orig === pos);
          truth[t] = { orig: -1, text: 'T' };
        }
        expect(r.after).toBe(`${truth.map((x) => x.text).join('\n')}\n`);
        expect(r.payload.diffCoarse ?? false).toBe(false);
        expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after);
        expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
      }
    }
  }, 120_000);

  it('property: one edit_lines op among braces, >1 KiB of braces either side, LF/CRLF, BOM, final newline or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', '}', 'x'), { minLength: 1, maxLength: 20 }),
        opArb,
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        fc.nat(3),
        fc.nat(3),
        async (core, raw, eol, finalNl, bom, padA, padB) => {
          const pad = '}'.repeat(40);
          const lines = [...Array(padA * 15).fill(pad), ...core, ...Array(padB * 15).fill(pad)];
          const ops = [{ ...raw, line: padA * 15 + (raw.line % core.length) } as LineOp];
          if (!finalNl && ops[0]!.line >= lines.length - 1) return; // the no-newline marker moves
          if (bom && ops[0]!.line === 0) return; // the BOM stays first: line 1 is shown changed
          const before = (bom ? '\uFEFF' : '') + lines.join(eol) + (finalNl ? eol : '');
          const truth = applyLineOps(lines, ops);
          const r = await runGated(before, 'edit_lines', (a) => ({
            operations: ops.map((o) => toolLineOp(o, a[o.line]!)),
            sanity: 'off',
          }));
          expect(r.outcome.ok).toBe(true);
          expect(r.after).toBe(
            (bom ? '\uFEFF' : '') + truth.map((t) => t.text).join(eol) + (finalNl && truth.length ? eol : ''),
          );
          if (r.after === before) return;
          expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after);
          expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  }, 300_000);

  it('property: patch_file one change (EOF deletions, no-newline markers, CRLF, BOM): bytes and diff', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', 'x', 'a', 'b', 'c', 'd'), { minLength: 2, maxLength: 25 }),
        opArb,
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        async (lines, raw, eol, finalNl, bom, ctx, last) => {
          if (!finalNl && lines.at(-1) === '') return;
          const ops = [{ ...raw, line: last ? lines.length - 1 : raw.line % lines.length } as LineOp];
          const truth = applyLineOps(lines, ops);
          const before = (bom ? '\uFEFF' : '') + lines.join(eol) + (finalNl ? eol : '');
          let udiff = unifiedOf(scriptOf(lines, ops), ctx);
          // Which sides' last line got a marker: the new side's last line is terminated unless it has one (as `patch` reads it).
          let oldMarked = false;
          let newMarked = false;
          if (!finalNl) {
            // mark the unterminated last lines, as a careful model would
            const out: string[] = [];
            let o = 0;
            let n = 0;
            for (const l of udiff.replace(/\n$/, '').split('\n')) {
              out.push(l);
              const m = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/.exec(l);
              if (m) {
                o = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
                n = Number(m[4]) === 0 ? Number(m[3]) : Number(m[3]) - 1;
              } else if (l.startsWith('---') || l.startsWith('+++')) {
              } else if (l[0] === ' ') {
                o++;
                n++;
                if (o === lines.length && n === truth.length) {
                  out.push('\\ No newline at end of file');
                  oldMarked = newMarked = true;
                }
              } else if (l[0] === '-') {
                if (++o === lines.length) {
                  out.push('\\ No newline at end of file');
                  oldMarked = true;
                }
              } else if (++n === truth.length) {
                out.push('\\ No newline at end of file');
                newMarked = true;
              }
            }
            udiff = `${out.join('\n')}\n`;
          }
          const r = await runGated(before, 'patch_file', { unified_diff: udiff, base_sha256: sha(before) });
          if (!r.outcome.ok) {
            expect(r.outcome.error.details?.reason).toBe('ambiguous');
            return;
          }
          const ended = finalNl || (oldMarked && !newMarked);
          expect(r.after).toBe(
            (bom ? '\uFEFF' : '') + truth.map((t) => t.text).join(eol) + (ended && truth.length ? eol : ''),
          );
          if (r.after !== before) expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after);
        },
      ),
      { numRuns: 400 },
    );
  }, 300_000);
});
