// rt31: edit_file's line-wise cascade against a brute-force reference (slide a window, compare normalised keys).
// Files of few distinct short lines; LF / CRLF / mixed; BOM; missing final newline; old_string perturbed in
// whitespace / indentation / quotes. Checks: level, ambiguity (match_lines), not-found, and that every line the
// request leaves unchanged keeps the file's bytes, the changed line keeps its line end, BOM and final newline kept,
// sha256 = bytes on disk, replacements_made, message line number.
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, key, oldLinesOf, refMatch, runTool, sha, splitLines } from './rt31-harness.js';

afterEach(cleanupAll);

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
  'x="q"',
  'x=“q”',
  'a-b',
  'a–b',
];
const perturb = (l: string, how: number) => {
  switch (how) {
    case 1:
      return l.replace(/[ \t]+$/, '');
    case 2:
      return `${l} `;
    case 3:
      return l.trim();
    case 4:
      return `    ${l.trim()}`;
    case 5:
      return l.replace(/'/g, '’').replace(/"/g, '”').replace(/-/g, '—');
    case 6:
      return l.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/–/g, '-');
    default:
      return l;
  }
};

const caseArb = fc.record({
  lines: fc.array(fc.constantFrom(...ATOMS), { minLength: 0, maxLength: 10 }),
  eolMode: fc.constantFrom('lf', 'crlf', 'mixed'),
  mixedBits: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
  finalNl: fc.boolean(),
  bom: fc.boolean(),
  winStart: fc.nat(),
  winLen: fc.integer({ min: 1, max: 4 }),
  perturbs: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 4, maxLength: 4 }),
  randomOld: fc.option(fc.array(fc.constantFrom(...ATOMS), { minLength: 1, maxLength: 12 }), { freq: 4 }),
  oldNl: fc.boolean(),
  newNl: fc.boolean(),
  kind: fc.constantFrom('insert', 'replace', 'delete'),
  k: fc.nat(),
  replaceAll: fc.boolean(),
});

// biome-ignore lint/suspicious/noExplicitAny: a generated case of the record above
function build(c: any) {
  const eols = c.lines.map((_: string, i: number) =>
    c.eolMode === 'lf' ? '\n' : c.eolMode === 'crlf' ? '\r\n' : c.mixedBits[i] ? '\r\n' : '\n',
  );
  let body = '';
  c.lines.forEach((l: string, i: number) => {
    body += l + (i < c.lines.length - 1 || c.finalNl ? eols[i] : '');
  });
  const text = (c.bom ? '\uFEFF' : '') + body;
  let oldL: string[];
  if (c.randomOld || c.lines.length === 0) oldL = c.randomOld ?? ['zz'];
  else {
    const s = c.winStart % c.lines.length;
    oldL = c.lines.slice(s, s + c.winLen).map((l: string, j: number) => perturb(l, c.perturbs[j]));
  }
  const old = oldL.join('\n') + (c.oldNl ? '\n' : '');
  const k = c.k % (oldL.length + (c.kind === 'insert' ? 1 : 0));
  const newL = [...oldL];
  if (c.kind === 'insert') newL.splice(k, 0, 'INSERTED');
  else if (c.kind === 'replace') newL[k] = 'CHANGED';
  else newL.splice(k, 1);
  const nu = newL.join('\n') + (c.newNl && newL.length ? '\n' : '');
  return { text, body, old, nu, oldL, newL, k };
}

const mixedEol: string[] = [];
describe('rt31 edit_file line-wise cascade vs brute-force reference', () => {
  it('agrees with the reference on generated low-entropy files', async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        if (failures.length >= 8) return;
        const { text, body, old, nu, oldL, k } = build(c);
        if (old === nu || old === '') return;
        // exact-level hits (plain replacements) are covered elsewhere: keep only requests not in the text at all
        if (body.includes(old) || body.includes(old.replace(/\n/g, '\r\n'))) return;
        const fileSplit = splitLines(body);
        const fileLines = fileSplit.map(([l]) => l);
        const oldLines = oldLinesOf(old);
        const ref = refMatch(fileLines, oldLines);
        const r = await runTool(text, 'edit_file', {
          old_string: old,
          new_string: nu,
          replace_all: c.replaceAll,
        });
        const tag = `${JSON.stringify(text)} old=${JSON.stringify(old)} new=${JSON.stringify(nu)} ra=${c.replaceAll}`;
        const o = r.outcome;
        const fail = (m: string) =>
          failures.push(
            `${m} :: ${tag} :: got ${JSON.stringify(o.ok ? o.data.match_level : o.error)} after=${JSON.stringify(r.after)}`,
          );
        if (!ref) {
          if (o.ok || o.error.code !== 'edit_not_found') fail('expected edit_not_found');
          if (r.after !== text) fail('changed on failure');
          return;
        }
        if (!o.ok && o.error.code === 'invalid_argument') return; // typographic form unknowable etc.
        if (ref.starts.length > 1 && !c.replaceAll) {
          if (o.ok || o.error.code !== 'edit_not_unique')
            return void fail(`expected edit_not_unique at ${ref.starts.map((s) => s + 1)}`);
          const ml = o.error.details?.match_lines;
          if (JSON.stringify(ml) !== JSON.stringify(ref.starts.map((s) => s + 1)))
            fail(`match_lines ${JSON.stringify(ml)} want ${ref.starts.map((s) => s + 1)}`);
          if (o.error.details?.match_level !== ref.level)
            fail(`level ${o.error.details?.match_level} want ${ref.level}`);
          if (r.after !== text) fail('changed on failure');
          return;
        }
        if (!o.ok) return void fail(`expected success at level ${ref.level} line ${ref.starts[0]! + 1}`);
        if (o.data.match_level !== ref.level) fail(`match_level ${o.data.match_level} want ${ref.level}`);
        if (o.data.sha256 !== sha(r.afterBytes)) fail('sha256 not of bytes on disk');
        if (typeof o.data.diff === 'string' && !/lines? (omitted|not shown)|more lines/.test(o.data.diff)) {
          const applied = applyPatch(text, o.data.diff, { autoConvertLineEndings: false } as any);
          if (applied !== r.after)
            fail(
              `result diff does not give the written file: ${JSON.stringify(o.data.diff)} applied=${JSON.stringify(applied)}`,
            );
        }
        // non-overlapping greedy selection
        const chosen: number[] = [];
        for (const s of ref.starts)
          if (!chosen.length || s >= chosen.at(-1)! + oldLines.length) chosen.push(s);
        const sel = c.replaceAll ? chosen : [ref.starts[0]!];
        if (o.data.replacements_made !== sel.length)
          fail(`replacements_made ${o.data.replacements_made} want ${sel.length}`);
        if (!c.replaceAll && !String(o.data.message).includes(`line ${sel[0]! + 1}`))
          fail(`message ${o.data.message}`);
        // BOM and final newline
        if (text.startsWith('\uFEFF') !== r.after.startsWith('\uFEFF')) fail('BOM changed');
        const hadFinal = /\n$/.test(body);
        const afterBody = r.after.replace(/^\uFEFF/, '');
        if (
          afterBody.length &&
          build(c).newL.at(-1) !== '' &&
          !(fileSplit.at(-2)?.[0] === '' && c.kind === 'delete') &&
          /\n$/.test(afterBody) !== hadFinal
        )
          fail('final newline presence changed');
        // line-level expectation (only for an unambiguous alignment: the edited old line's key differs from its neighbours)
        if (sel.length !== 1 || oldLines.length !== oldL.length) return;
        const nl = build(c).newL;
        if (nu === '' ? nl.length !== 0 : JSON.stringify(oldLinesOf(nu)) !== JSON.stringify(nl)) return;
        if (!/\n/.test(body)) return;
        const lvl = ref.level;
        const kk = (j: number) => (j >= 0 && j < oldL.length ? key(lvl, oldLines[j]!) : '\u0000none');
        if (c.kind !== 'insert' && (kk(k) === kk(k - 1) || kk(k) === kk(k + 1))) return;
        if (c.kind === 'insert' && (kk(k - 1) === 'INSERTED' || kk(k) === 'INSERTED')) return;
        const s0 = sel[0]!;
        // deleting the last line after an empty one: "x\n" + "" is the same text either way
        if (
          c.kind === 'delete' &&
          fileSplit.at(-1)![1] === '' &&
          s0 + k === fileSplit.length - 1 &&
          fileSplit.at(-2)?.[0] === ''
        )
          return;
        const got = splitLines(afterBody);
        const exp = fileSplit.map(([l, e]) => [l, e] as [string, string]);
        const at = s0 + k;
        if (c.kind === 'insert') {
          if (got.length !== exp.length + 1)
            return void fail(`insert: ${got.length} lines want ${exp.length + 1}`);
          const [gl, ge] = got[at]!;
          if (gl.trim() !== 'INSERTED' || /[^ \t]/.test(gl.slice(0, gl.indexOf('INSERTED'))))
            fail(`inserted line ${JSON.stringify(gl)}`);
          const rest = got.filter((_, i) => i !== at);
          for (let i = 0; i < exp.length; i++) {
            const last = i === exp.length - 1;
            const okLine =
              rest[i]![0] === exp[i]![0] &&
              (rest[i]![1] === exp[i]![1] || (last && at === exp.length && exp[i]![1] === ''));
            if (!okLine)
              fail(`insert: line ${i + 1} ${JSON.stringify(rest[i])} want ${JSON.stringify(exp[i])}`);
          }
          if (c.eolMode !== 'mixed' && ge !== '' && ge !== (c.eolMode === 'lf' ? '\n' : '\r\n'))
            fail(`inserted eol ${JSON.stringify(ge)}`);
        } else if (c.kind === 'replace') {
          if (got.length !== exp.length) return void fail(`replace: ${got.length} lines want ${exp.length}`);
          for (let i = 0; i < exp.length; i++) {
            if (i === at) {
              if (got[i]![0].trim() !== 'CHANGED') fail(`changed line ${JSON.stringify(got[i])}`);
              if (got[i]![1] !== exp[i]![1])
                (c.eolMode === 'mixed' ? mixedEol : failures).push(
                  `changed line lost its eol ${JSON.stringify(got[i])} want ${JSON.stringify(exp[i])}`,
                );
            } else if (got[i]![0] !== exp[i]![0] || got[i]![1] !== exp[i]![1])
              fail(`replace: line ${i + 1} ${JSON.stringify(got[i])} want ${JSON.stringify(exp[i])}`);
          }
        } else {
          if (got.length !== exp.length - 1)
            return void fail(`delete: ${got.length} lines want ${exp.length - 1}`);
          const rest = exp.filter((_, i) => i !== at);
          for (let i = 0; i < rest.length; i++) {
            const last = i === rest.length - 1;
            const okLine =
              got[i]![0] === rest[i]![0] &&
              (got[i]![1] === rest[i]![1] || (last && at === exp.length - 1 && got[i]![1] === ''));
            if (!okLine)
              fail(`delete: line ${i + 1} ${JSON.stringify(got[i])} want ${JSON.stringify(rest[i])}`);
          }
        }
      }),
      { numRuns: Number(process.env.RT31_RUNS ?? 3000), seed: Number(process.env.RT31_SEED ?? 2) },
    );
    expect(failures).toEqual([]);
  }, 600_000);
  it('(same run) in a mixed-EOL file, a replaced line keeps its own line ending', () => {
    expect(mixedEol.slice(0, 3)).toEqual([]);
  });
});
