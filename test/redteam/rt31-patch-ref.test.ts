// rt31: patch_file fidelity against a brute-force reference. One hunk whose context / removed lines are the file's
// lines with whitespace, indentation or quote drift and a wrong @@ line number. Promise: placed where the
// reference's first matching level finds exactly one spot, refused (invalid_diff) when it finds 2+ or none; the
// written file differs from the original only in the changed line (context lines byte for byte, line ends, BOM,
// final newline kept).
import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, refMatch, runTool, splitLines } from './rt31-harness.js';

afterEach(cleanupAll);
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const ATOMS = [
  '}',
  '',
  '  }',
  '\t}',
  '} ',
  'a',
  'a ',
  '  a',
  'ab',
  "x='q'",
  'x=‘q’',
  'a-b',
  'a–b',
  'f(1);',
  '  f(1);',
];
const perturb = (l: string, how: number) =>
  [l, l.replace(/[ \t]+$/, ''), `${l} `, l.trim(), `  ${l.trim()}`, l.replace(/'/g, '’').replace(/-/g, '—')][
    how
  ]!;

describe('rt31 patch_file vs brute-force reference', () => {
  it('one drifted hunk', async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ATOMS), { minLength: 1, maxLength: 10 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        fc.nat(),
        fc.integer({ min: 1, max: 4 }),
        fc.nat(),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 40 }),
        async (lines, eol, finalNl, bom, ws, wl, wj, pert, atLine) => {
          if (failures.length > 6) return;
          const body = lines.join(eol) + (finalNl ? eol : '');
          const text = (bom ? '\uFEFF' : '') + body;
          const split = splitLines(body);
          if (!split.length) return;
          const s = ws % split.length;
          const win = split.slice(s, s + wl).map(([l]) => l);
          const j = wj % win.length;
          const old = win.map((l, i) => perturb(l, pert[i]!));
          if (old[j]!.trim() === '') return; // a blank "-" line: alignment choices differ legitimately
          const hunk = old.map((l, i) => (i === j ? `-${l}\n+CHANGED` : ` ${l}`)).join('\n');
          const diff = `--- a/f.txt\n+++ b/f.txt\n@@ -${atLine},${old.length} +${atLine},${old.length} @@\n${hunk}\n`;
          const ref = refMatch(
            split.map(([l]) => l),
            old,
          );
          // exact-content windows: the hunk matches byte for byte (level "exact" before the fuzzy ones)
          const exactStarts: number[] = [];
          for (let i = 0; i + old.length <= split.length; i++)
            if (old.every((l, k) => split[i + k]![0] === l)) exactStarts.push(i);
          const starts = exactStarts.length ? exactStarts : (ref?.starts ?? []);
          const r = await runTool(text, 'patch_file', { unified_diff: diff, base_sha256: sha(text) });
          const o = r.outcome;
          const tag = `${JSON.stringify(text)} diff=${JSON.stringify(hunk)} → ${o.ok ? 'ok' : `${o.error.code}/${o.error.details?.reason}`} after=${JSON.stringify(r.after)}`;
          if (starts.length !== 1) {
            if (o.ok)
              failures.push(
                `applied though reference has ${starts.length} spots (${starts.map((x) => x + 1)}) :: ${tag}`,
              );
            else if (r.after !== text) failures.push(`changed on failure :: ${tag}`);
            return;
          }
          if (!o.ok) {
            if (o.error.details?.reason !== 'unclear_change')
              failures.push(`refused a unique spot (line ${starts[0]! + 1}) :: ${tag}`);
            return;
          }
          const at = starts[0]! + j;
          const got = splitLines(r.after.replace(/^\uFEFF/, ''));
          if (r.after.startsWith('\uFEFF') !== bom) failures.push(`BOM :: ${tag}`);
          if (got.length !== split.length) return void failures.push(`line count :: ${tag}`);
          for (let i = 0; i < split.length; i++) {
            if (i === at) {
              if (got[i]![0].trim() !== 'CHANGED' || got[i]![1] !== split[i]![1])
                failures.push(`changed line ${JSON.stringify(got[i])} :: ${tag}`);
            } else if (got[i]![0] !== split[i]![0] || got[i]![1] !== split[i]![1])
              failures.push(
                `line ${i + 1} ${JSON.stringify(got[i])} want ${JSON.stringify(split[i])} :: ${tag}`,
              );
          }
        },
      ),
      { numRuns: Number(process.env.RT31_RUNS ?? 1500), seed: Number(process.env.RT31_SEED ?? 31) },
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
