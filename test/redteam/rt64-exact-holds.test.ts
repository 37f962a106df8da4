// rt64 holds: at walk scale (100k lines, many regions) the approval diff applied to the old text gives exactly
// the new text, for CRLF / mixed line ends / U+2028 / BOM / missing final newline on either side.
// (the review counts were compared in the exploration: equal wherever the approval was not coarse).
import { afterEach, describe, expect, it } from 'vitest';
import { applyEdit, type Edit, type Kind, makeText, rng } from './rt64-gen.js';
import { applyUnified, cleanupRt64, writePayload } from './rt64-helpers.js';

afterEach(cleanupRt64);

const ENDS = ['\n', '\r\n', '\r\n', '\u2028\n'];
const join = (ls: string[], eol: string, fin: boolean) =>
  ls
    .map(
      (l, i) => l + (i === ls.length - 1 && !fin ? '' : eol === 'mix' ? ENDS[(i * 7 + l.length) % 4] : eol),
    )
    .join('');

describe('rt64 holds: exact approval diffs at walk scale', () => {
  const cases: [Kind, Edit, string, boolean, boolean, boolean][] = [
    [{ k: 'code' }, { e: 'dense', d: 0.01, src: 'same' }, '\r\n', true, false, true],
    [{ k: 'few', n: 2 }, { e: 'move', m: 5, len: 200 }, 'mix', false, true, false],
    [{ k: 'periodic', p: 3 }, { e: 'dense', d: 0.05, src: 'both' }, 'mix', false, false, true],
    [{ k: 'sections' }, { e: 'bigins', len: 10_000, src: 'same' }, '\r\n', true, true, false],
  ];
  for (const [kind, edit, eol, bom, finA, finB] of cases)
    it(`holds: 100k ${kind.k} ${edit.e} eol=${JSON.stringify(eol)} bom=${bom} finalA=${finA} finalB=${finB}`, async () => {
      const r = rng(64);
      const { lines, fresh, same } = makeText(kind, 100_000, r);
      const b = applyEdit(lines, edit, r, fresh, same);
      const before = (bom ? '\uFEFF' : '') + join(lines, eol, finA);
      const after = join(b, eol, finB);
      const p = await writePayload(before, after);
      expect(applyUnified(before, p.unifiedDiff)).toBe(after);
    }, 60_000);
});
