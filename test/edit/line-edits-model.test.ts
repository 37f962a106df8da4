import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyLineEdits } from '../../src/edit/apply-line-edits.js';
import type { LineEditOp } from '../../src/edit/line-edit-ops.js';
import { lineHash } from '../../src/edit/line-hash.js';
import { splitLines, withoutBom } from '../../src/edit/text-format.js';
import { expectSplice } from '../helpers/splice.js';

// edit_lines builds the new text from the old text between edits and each edit's
// content as one block. This pins it to the plain model: split the whole file into
// lines and endings, splice every operation in bottom-up, join.

const WORDS = ['', '}', '{', '  x = 1;', 'x = 1;', 'foo', '(a)', 'é', 'a\rb'];
const word = fc.constantFrom(...WORDS);
const ending = fc.constantFrom('\n', '\n', '\r\n');
const textArb = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(word, ending), { maxLength: 12 }), word, fc.boolean())
  .map(
    ([bom, lines, last, final]) =>
      (bom ? '\uFEFF' : '') + lines.map(([l, e]) => l + e).join('') + (final ? '' : last),
  );
const content = fc
  .array(fc.tuple(word, ending), { maxLength: 4 })
  .chain((ls) => fc.constantFrom(ls.map(([l, e]) => l + e).join(''), ls.map(([l]) => l).join('\n')));

type Op = LineEditOp & { at: number; to?: number };

function opsFor(text: string): fc.Arbitrary<Op[]> {
  const lines = splitLines(withoutBom(text).body).lines;
  const at = fc.nat(Math.max(0, lines.length - 1));
  const anchor = (i: number) => `${i + 1}#${lineHash(lines[i] ?? '')}`;
  const one = fc.oneof(
    fc.tuple(fc.constantFrom('replace_line', 'insert_after', 'insert_before', 'delete_line'), at, content),
    fc.tuple(fc.constantFrom('replace_range', 'delete_range'), fc.tuple(at, at), content),
  );
  return fc.array(
    one.map(([op, where, c]) => {
      if (typeof where === 'number') {
        return op === 'delete_line'
          ? ({ op, hash: anchor(where), at: where } as Op)
          : ({ op, hash: anchor(where), content: c, at: where } as Op);
      }
      const [a, b] = where;
      const base = { start_hash: anchor(a), end_hash: anchor(b), at: Math.min(a, b), to: Math.max(a, b) };
      return (op === 'delete_range' ? { op, ...base } : { op, ...base, content: c }) as Op;
    }),
    { minLength: 1, maxLength: 4 },
  );
}

/** The whole-file model: every operation as [start, end, lines], spliced bottom-up. */
function model(text: string, ops: Op[]): { newText: string; linesAfter: number } {
  const { body, restore } = withoutBom(text);
  const { lines, terminators } = splitLines(body);
  const eol =
    body.includes('\r\n') && body.split('\r\n').length - 1 > (body.split('\n').length - 1) / 2
      ? '\r\n'
      : '\n';
  const contentLines = (c: string) => {
    const ls = c.replaceAll('\r\n', '\n').split('\n');
    return ls.length > 1 && ls.at(-1) === '' ? ls.slice(0, -1) : ls;
  };
  const splices = ops.map((o) => {
    const c = 'content' in o ? contentLines(o.content) : [];
    switch (o.op) {
      case 'insert_after':
        return [o.at + 1, o.at + 1, c] as const;
      case 'insert_before':
        return [o.at, o.at, c] as const;
      case 'replace_range':
      case 'delete_range':
        return [o.at, o.to! + 1, c] as const;
      default:
        return [o.at, o.at + 1, c] as const;
    }
  });
  for (const [start, end, added] of [...splices].sort((a, b) => b[0] - a[0] || b[1] - a[1])) {
    const atEnd = end === lines.length && end > start;
    const terms = added.map((_, i) => (i === added.length - 1 ? (atEnd ? terminators[end - 1]! : eol) : eol));
    if (start === end && start === lines.length && start > 0 && terminators[start - 1] === '') {
      terminators[start - 1] = eol;
      terms[terms.length - 1] = '';
    }
    lines.splice(start, end - start, ...added);
    terminators.splice(start, end - start, ...terms);
  }
  if (lines.at(-1) === '' && terminators.at(-1) === '') {
    lines.pop();
    terminators.pop();
  }
  return { newText: restore(lines.map((l, i) => l + terminators[i]).join('')), linesAfter: lines.length };
}

describe('edit_lines against the whole-file model', () => {
  it('writes exactly the model text and counts its lines, whatever the endings', () => {
    let applied = 0;
    fc.assert(
      fc.property(
        textArb.chain((t) => fc.tuple(fc.constant(t), opsFor(t))),
        ([text, ops]) => {
          const result = applyLineEdits(text, ops, { sanity: 'off' });
          expectSplice(text, result);
          if (!result.ok) return; // overlapping operations, a range of one line, a twin's hash: refused whole
          applied++;
          const expected = model(text, ops);
          expect(result.newText).toBe(expected.newText);
          expect(result.linesAfter).toBe(expected.linesAfter);
          expect(result.linesAfter).toBe(splitLines(withoutBom(result.newText).body).lines.length);
        },
      ),
      { numRuns: 6000 },
    );
    expect(applied).toBeGreaterThan(600);
  });
});
