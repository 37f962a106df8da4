// rt49 held: edit_file replace_all — the approval payload's unifiedDiff, applied strictly (each hunk at
// its header's line, no fuzz, "\ No newline" markers checked) to the old file, gives exactly the bytes
// written; added / removed / diffLines / description count the diff; no line outside the matches is
// shown removed. Random texts over a small alphabet (\n, \r\n, lone \r, tabs, spaces, `}`, astral
// characters, BOM), around the 1,000-hit (one native pass) and 64 KiB (window) thresholds.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkPayload,
  cleanup,
  compareModelDiff,
  removedOutside,
  replaceAllPlain,
  runGated,
  touchedLines,
} from './rt49-harness.js';

afterEach(cleanup);

const toFileEol = (t: string, eol: string) => {
  const lf = t.replaceAll('\r\n', '\n');
  return eol === '\n' ? lf : lf.replaceAll('\n', '\r\n');
};
const filler = (k: number, tag: string, eol: string) => {
  let s = '';
  for (let i = 0; i < k; i++) s += `${tag} filler line ${i} abcdefghij${eol}`;
  return s;
};

describe('rt49 held: replace_all payload diff is what is written', () => {
  it('exact matches (adjacent, overlapping, spanning lines, $ patterns), 1 to 3,000 hits', async () => {
    const tok = fc.constantFrom(
      'a',
      'b',
      '}',
      ' ',
      '\n',
      '\n',
      '\r\n',
      '\r',
      '😀',
      'ab',
      '\t',
      '  x',
      'x ',
      '\u2028',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(tok, { minLength: 1, maxLength: 10 }),
        fc.constantFrom(1, 2, 5, 999, 1000, 1001, 3000),
        fc.constantFrom(0, 3000),
        fc.constantFrom(0, 3000),
        fc.constantFrom('\n', '\r\n'),
        fc.nat(),
        fc.nat(),
        fc.array(fc.constantFrom('a', 'b', 'X', '', '\n', '\r\n', '$&', '$1', '$$', '😀', '}', ' '), {
          maxLength: 4,
        }),
        fc.constantFrom(0, 1, 2),
        fc.boolean(),
        async (unitT, rep, pre, post, eol, s0, l0, newT, inter, bom) => {
          const unit = unitT.join('');
          const mid =
            inter === 1
              ? Array.from({ length: rep }, (_, i) => `${unit}u${i % 7}${eol}`).join('')
              : inter === 2
                ? Array.from({ length: rep }, (_, i) => unit + `${eol}k`.repeat(i % 9)).join('')
                : unit.repeat(rep);
          const body = filler(pre, 'P', eol) + mid + filler(post, 'Q', eol);
          const text = (bom ? '\uFEFF' : '') + body;
          const from = s0 % unit.length;
          const len = 1 + (l0 % Math.min(6, unit.length - from + (inter ? 0 : 3)));
          const old = mid.slice(from, from + len);
          if (!old || /[\uDC00-\uDFFF]/.test(old[0]!) || /[\uD800-\uDBFF]/.test(old.at(-1)!)) return;
          const nu = newT.join('');
          if (old === nu) return;
          const r = await runGated(text, 'edit_file', { old_string: old, new_string: nu, replace_all: true });
          const errs = checkPayload(r);
          if (r.outcome.ok && r.payload.matchLevel === 'exact') {
            const crlf = body.split('\r\n').length - 1;
            const lf = body.split('\n').length - 1 - crlf;
            const feol = body.includes('\r') && crlf > lf ? '\r\n' : '\n';
            const v = [
              [toFileEol(old, feol), toFileEol(nu, feol)],
              [old, nu],
            ].find(([o, n]) => replaceAllPlain(text, o!, n!) === r.after);
            if (!v) errs.push('exact write is not a plain replace-all');
            else {
              const bad = removedOutside(r.payload.unifiedDiff, touchedLines(text, v[0]!, v[1]!));
              if (bad.length) errs.push(`untouched lines shown removed: ${bad.slice(0, 5)}`);
            }
          }
          if (r.outcome.ok) {
            const e = compareModelDiff(r.payload.unifiedDiff, r.outcome.data.diff);
            if (e) errs.push(`model diff: ${e}`);
          }
          cleanup();
          expect(errs, JSON.stringify({ unit, rep, pre, post, eol, inter, bom, old, nu })).toEqual([]);
        },
      ),
      { numRuns: 90, seed: 4901 },
    );
  }, 60_000);

  it('fuzzy matches (trailing whitespace, indentation, typographic quotes), up to 2,500 repeats', async () => {
    const lineT = fc.tuple(
      fc.constantFrom('', ' ', '  ', '\t', '    '),
      fc.constantFrom('a', 'b', '}', 'a b', 'x', '“q”', 'q"', ''),
      fc.constantFrom('', ' ', '\t', '  '),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineT, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(1, 2, 7, 1001, 2500),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.nat(),
        fc.nat(),
        fc.array(fc.constantFrom('strip', 'indent', 'keep', 'dedent', 'quote'), {
          minLength: 3,
          maxLength: 3,
        }),
        fc.array(lineT, { minLength: 0, maxLength: 3 }),
        fc.boolean(),
        fc.boolean(),
        async (unitL, rep, eol, finalNl, s0, l0, perturb, newL, oldNl, newNl) => {
          const unitLines = unitL.map(([a, b, c]) => a + b + c);
          const all: string[] = [];
          for (let i = 0; i < rep; i++) all.push(...unitLines, `sep ${i % 5}`);
          let text = all.join(eol);
          if (finalNl) text += eol;
          const st = s0 % unitL.length;
          const ln = 1 + (l0 % Math.min(3, unitL.length - st));
          const old =
            unitL
              .slice(st, st + ln)
              .map(([a, b, c], i) => {
                const m = perturb[i];
                if (m === 'strip') return a + b;
                if (m === 'indent') return `  ${a}${b}${c}`;
                if (m === 'dedent') return b + c;
                if (m === 'quote') return a + b.replace('"', '”') + c;
                return a + b + c;
              })
              .join('\n') + (oldNl ? '\n' : '');
          const nu = newL.map(([a, b, c]) => a + b + c).join('\n') + (newNl && newL.length ? '\n' : '');
          if (!old.trim() || old === nu) return;
          const r = await runGated(text, 'edit_file', { old_string: old, new_string: nu, replace_all: true });
          const errs = checkPayload(r);
          if (r.outcome.ok && r.payload.matchLevel !== 'exact') {
            const norm = (s: string) => s.replace(/\r$/, '').replace(/\s+/g, '').replace(/[“”]/g, '"');
            const want = new Set(old.split('\n').map(norm));
            const oldLines = text.split('\n');
            let oi = -1;
            for (const l of r.payload.unifiedDiff.split('\n') as string[]) {
              const h = /^@@ -(\d+)(?:,(\d+))? /.exec(l);
              if (h) {
                oi = Number(h[2]) === 0 ? Number(h[1]) : Number(h[1]) - 1;
                continue;
              }
              if (oi < 0) continue;
              if (l[0] === ' ') oi++;
              else if (l[0] === '-') {
                if (!want.has(norm(l.slice(1))) && !want.has(norm(oldLines[oi + 1] ?? '')))
                  errs.push(`line ${oi + 1} shown removed, not a match: ${JSON.stringify(l)}`);
                oi++;
              }
            }
          }
          cleanup();
          expect(errs.slice(0, 5), JSON.stringify({ unitLines, rep, eol, finalNl, old, nu })).toEqual([]);
        },
      ),
      { numRuns: 90, seed: 4902 },
    );
  }, 60_000);

  it('check() (needsApproval), a dry run and the approval show one payload, and it applies to what is written', async () => {
    const { FileSystemToolset, ApprovalToolset, Sandbox } = await import('../../src/index.js');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { tempDir, strictApply } = await import('./rt49-harness.js');
    const text = `\uFEFF${Array.from({ length: 3000 }, (_, i) => (i % 3 ? `  item ${i % 5};  ` : `x${i}`)).join('\r\n')}`;
    const dir = tempDir({ 'f.txt': text });
    const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const args = { path: '/f.txt', old_string: 'item 2;\n', new_string: 'thing\n', replace_all: true };
    const checked: any = await ts.needsApproval('edit_file', args);
    const dry: any = await ts.callTool('edit_file', { ...args, dryRun: true });
    let shown: any;
    const gated = new ApprovalToolset(ts, {
      approve: (req) => {
        shown = req.payload;
        return { approved: true };
      },
    });
    const out: any = await gated.callTool('edit_file', args);
    expect(out.ok).toBe(true);
    expect(checked.payload).toEqual(shown);
    expect(dry.data.payload).toEqual(shown);
    const applied = strictApply(text, shown.unifiedDiff);
    expect(applied.errors).toEqual([]);
    expect(applied.text).toBe(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8'));
  });
});
