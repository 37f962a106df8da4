import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashGroups } from '../../src/edit/hash-groups.js';
import { KeyedLines } from '../../src/edit/keyed-lines.js';
import { LineTable } from '../../src/edit/line-table.js';
import { lineKey, MATCH_LEVELS } from '../../src/edit/normalize-line.js';
import { LineIndex } from '../../src/edit/resolve-anchor.js';

// Few distinct lines (so blocks repeat and overlap), with the slips each level forgives.
const base = fc.constantFrom('}', '', '  }', 'value = compute(1);', "say('hi');", 'value = compute(2);', 'x');
const slipped = fc
  .tuple(base, fc.constantFrom('', ' ', '\t'), fc.constantFrom('', '  ', '\t'), fc.boolean())
  .map(([b, lead, trail, curl]) => lead + (curl ? b.replace(/'/g, '\u2019') : b) + trail);

describe('HashGroups', () => {
  // Values crowded into a few (so runs are long) plus the extremes of the unsigned range.
  const value = fc.oneof(
    fc.constantFrom(0, 1, 0xffff, 0x10000, 0xffffffff, 0x80000000),
    fc.nat(40),
    fc.nat(),
  );
  it('finds the lines with a value, and with values in a range, as a pass over them does', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 300 }), value, value, (list, a, b) => {
        const values = Uint32Array.from(list);
        const groups = new HashGroups(values);
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const pass = (keep: (v: number) => boolean) => list.flatMap((v, i) => (keep(v) ? [i] : []));
        for (const v of [a, b, ...list.slice(0, 5)])
          expect(Array.from(groups.linesWith(v))).toEqual(pass((x) => x === v));
        expect(groups.linesBetween(lo, hi)).toEqual(pass((x) => x >= lo && x <= hi));
      }),
      { numRuns: 400 },
    );
  });
});

describe('KeyedLines', () => {
  it('finds every window the definition does, at each level, between from and to', () => {
    fc.assert(
      fc.property(
        fc.array(slipped, { minLength: 1, maxLength: 80 }),
        fc.array(slipped, { minLength: 1, maxLength: 6 }),
        fc.nat(20),
        fc.nat(20),
        fc.constantFrom('\n', '\r\n'),
        (lines, needle, from, cut, eol) => {
          const table = new LineTable(`${lines.join(eol)}${eol}`);
          const keyed = new KeyedLines(table);
          const to = Math.max(0, lines.length - cut);
          for (const level of MATCH_LEVELS) {
            const keys = needle.map((l) => lineKey(l, level));
            const want = [];
            for (let i = from; i + keys.length <= to; i++)
              if (keys.every((k, j) => lineKey(lines[i + j]!, level) === k))
                want.push({ start: i, end: i + keys.length });
            expect(keyed.locate(needle, level, from, to)).toEqual(want);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('finds a block taken from the file when the search starts right at it, before it or past it', () => {
    fc.assert(
      fc.property(
        fc.array(slipped, { minLength: 2, maxLength: 60 }),
        fc.nat(59),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: -1, max: 1 }),
        (lines, at, k, shift) => {
          const p = at % lines.length;
          const needle = lines.slice(p, p + k);
          const table = new LineTable(`${lines.join('\n')}\n`);
          const from = Math.max(0, p + shift);
          for (const level of MATCH_LEVELS) {
            const keys = needle.map((l) => lineKey(l, level));
            const want = [];
            for (let i = from; i + keys.length <= lines.length; i++)
              if (keys.every((key, j) => lineKey(lines[i + j]!, level) === key))
                want.push({ start: i, end: i + keys.length });
            expect(new KeyedLines(table).locate(needle, level, from, lines.length)).toEqual(want);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('LineIndex lookups once the lines are grouped by hash', () => {
  it('name the same lines as a pass over every line, for every prefix length', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(slipped, fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 200 }),
        fc.array(fc.tuple(fc.nat(199), fc.integer({ min: 4, max: 8 }), fc.boolean()), {
          minLength: 12,
          maxLength: 30,
        }),
        (lines, asks) => {
          const index = new LineIndex(new LineTable(`${lines.join('\n')}\n`));
          const full = index.full;
          const shown = index.shown;
          const pass = (values: Uint32Array, prefix: string) => {
            const out: number[] = [];
            values.forEach((v, i) => {
              if (v.toString(16).padStart(8, '0').startsWith(prefix)) out.push(i);
            });
            return out;
          };
          // Past the first few lookups (each a pass), the grouped ones must agree too.
          for (const [at, length, ofShown] of asks) {
            const values = ofShown ? shown : full;
            const prefix = values[at % values.length]!.toString(16).padStart(8, '0').slice(0, length);
            expect(index.candidates(prefix)).toEqual(pass(full, prefix));
            expect(index.shownLines(prefix)).toEqual(pass(shown, prefix));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
