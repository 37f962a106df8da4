// rt33: the terminal approval UI (renderPayload, no colour) draws the payload's diff: every row's
// kind, text and old/new line numbers agree with payload.unifiedDiff, and word highlights ([-..-] /
// {+..+}) pair the i-th removed line with the i-th added line of a block (what is left after taking
// out the highlighted words is the same text on both rows).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createStyle, renderPayload } from '../../src/terminal/index.js';
import { cleanup, runGated } from './rt32-harness.js';

afterEach(cleanup);

const wordsArb = fc.array(fc.constantFrom('a', 'b', 'foo', 'bar', '}', '{', 'x1', 'y2'), {
  minLength: 1,
  maxLength: 4,
});
const lineArb = wordsArb.map((w) => w.join(' '));

function checkRendered(payload: any): string[] {
  const errs: string[] = [];
  const out = renderPayload(payload, createStyle(false), 400);
  // Expected rows from the diff: [kind, old, new, text]
  const want: Array<[string, number | null, number | null, string]> = [];
  let o = 0;
  let n = 0;
  for (const l of payload.unifiedDiff.replace(/\n$/, '').split('\n')) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (m) {
      o = Number(m[1]) - (m[2] === '0' ? 0 : 1);
      n = Number(m[3]) - (m[4] === '0' ? 0 : 1);
      continue;
    }
    if (l.startsWith('---') || l.startsWith('+++') || l.startsWith('\\')) continue;
    if (l[0] === ' ') want.push([' ', ++o, ++n, l.slice(1)]);
    else if (l[0] === '-') want.push(['-', ++o, null, l.slice(1)]);
    else if (l[0] === '+') want.push(['+', null, ++n, l.slice(1)]);
  }
  const rows: Array<[string, number | null, number | null, string, string]> = [];
  for (let i = 0; i < out.body.count; i++) {
    const line = out.body.line(i);
    const m = /^([ \d]{3}) ([ \d]{3}) ([ +-])(.*)$/.exec(line);
    if (!m) continue; // hunk headers, ⋯ markers, notes
    const num = (s: string) => (s.trim() === '' ? null : Number(s));
    const marked = m[4]!;
    rows.push([m[3]!, num(m[1]!), num(m[2]!), out.body.text?.(i) ?? marked, marked]);
  }
  if (rows.length !== want.length) return [`rows ${rows.length} vs diff lines ${want.length}`];
  rows.forEach((r, i) => {
    const w = want[i]!;
    if (r[0] !== w[0] || r[1] !== w[1] || r[2] !== w[2] || r[3] !== w[3])
      errs.push(`row ${i}: drawn ${JSON.stringify(r.slice(0, 4))} diff ${JSON.stringify(w)}`);
  });
  // Blocks: a run of '-' then a run of '+' of the same length: pair i-th with i-th.
  for (let i = 0; i < rows.length; ) {
    if (rows[i]![0] !== '-') {
      i++;
      continue;
    }
    let d = i;
    while (d < rows.length && rows[d]![0] === '-') d++;
    let a = d;
    while (a < rows.length && rows[a]![0] === '+') a++;
    if (a - d === d - i)
      for (let k = 0; k < d - i; k++) {
        const del = rows[i + k]![4];
        const add = rows[d + k]![4];
        const common = (s: string, re: RegExp) => s.replace(re, '');
        const cd = common(del, /\[-[\s\S]*?-\]/g);
        const ca = common(add, /\{\+[\s\S]*?\+\}/g);
        if (/\[-|\{\+/.test(del + add) && cd !== ca) errs.push(`pair ${i + k}/${d + k}: ${del} | ${add}`);
        if (/\{\+/.test(del) || /\[-/.test(add)) errs.push(`wrong-side marker: ${del} | ${add}`);
      }
    i = a;
  }
  return errs;
}

describe('rt33 terminal: renderPayload draws the payload diff', () => {
  it('property: rows, numbers and word-highlight pairs agree with the diff (edit_lines multi-op)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { minLength: 3, maxLength: 15 }),
        fc.array(fc.record({ line: fc.nat(), content: fc.array(lineArb, { minLength: 1, maxLength: 3 }) }), {
          minLength: 1,
          maxLength: 3,
        }),
        async (lines, raw) => {
          const seen = new Set<number>();
          const ops = raw
            .map((r) => ({ ...r, line: r.line % lines.length }))
            .filter((r) => !seen.has(r.line) && !!seen.add(r.line));
          const before = `${lines.join('\n')}\n`;
          const r = await runGated(before, 'edit_lines', (a) => ({
            operations: ops.map((o) => ({
              op: 'replace_line',
              hash: a[o.line],
              content: o.content.join('\n'),
            })),
            sanity: 'off',
          }));
          if (!r.outcome.ok || !r.payload?.unifiedDiff) return;
          expect(checkRendered(r.payload), r.payload.unifiedDiff).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  }, 300_000);

  it('highlights show on an equal block (sanity of the checker)', async () => {
    const r = await runGated('a b c\nfoo bar\nx\n', 'edit_file', {
      old_string: 'a b c\nfoo bar\n',
      new_string: 'a B c\nfoo BAR\n',
    });
    const out = renderPayload(r.payload, createStyle(false), 200);
    const all = Array.from({ length: out.body.count }, (_, i) => out.body.line(i)).join('\n');
    expect(all).toMatch(/\[-b-\]/);
    expect(checkRendered(r.payload)).toEqual([]);
  });
});
