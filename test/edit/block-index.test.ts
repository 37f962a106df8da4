import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateIndexed, locateSpans } from '../../src/edit/block-index.js';
import { closestRegion, similarity } from '../../src/edit/closest-region.js';
import { LineTable } from '../../src/edit/line-table.js';
import { lineKey, MATCH_LEVELS, type MatchLevel } from '../../src/edit/normalize-line.js';

/** The definition: every window whose keys equal the needle's, at the first level with any. */
function reference(
  lines: readonly string[],
  needle: readonly string[],
  levels: readonly MatchLevel[],
  from: number,
) {
  for (const level of levels) {
    const keys = needle.map((l) => lineKey(l, level));
    const matches = [];
    for (let i = from; i + keys.length <= lines.length; i++)
      if (keys.every((k, j) => lineKey(lines[i + j]!, level) === k))
        matches.push({ start: i, end: i + keys.length });
    if (matches.length > 0) return { level, matches };
  }
  return undefined;
}

// Few distinct lines (so blocks repeat and overlap), with the slips each level forgives.
// Lines around and past the 32 characters looked at one by one (searched natively past them).
const base = fc.constantFrom(
  '}',
  '',
  '  }',
  'value = compute(1);',
  "say('hi');",
  'value = compute(2);',
  'x',
  'const total = computeSomething(first, second, "third argument");',
  'a'.repeat(31),
  'b'.repeat(32),
  'c'.repeat(33),
);
const slipped = fc
  .tuple(base, fc.constantFrom('', ' ', '\t'), fc.constantFrom('', '  ', '\t'), fc.boolean())
  .map(([b, lead, trail, curl]) => lead + (curl ? b.replace(/'/g, '\u2019') : b) + trail);

const textOf = (lines: readonly string[], eol: string, final: boolean) =>
  lines.join(eol) + (final && lines.length > 0 ? eol : '');

/**
 * locateSpans (no line table) gives the same matches as offsets of whole lines, or
 * declines (undefined) and leaves it to locateIndexed.
 */
function expectSpans(table: LineTable, needle: readonly string[], want: ReturnType<typeof reference>): void {
  const spans = locateSpans(table.text, needle, MATCH_LEVELS);
  if (spans === undefined) return;
  if (want === undefined) {
    expect(spans).toBe('not_found');
    return;
  }
  expect(spans).toEqual({
    level: want.level,
    matches: want.matches.map((m) => ({ start: table.offset(m.start), end: table.offset(m.end) })),
  });
}

describe('locateIndexed', () => {
  it('finds exactly the windows the definition does (table and array, every level, from)', () => {
    fc.assert(
      fc.property(
        fc.array(slipped, { minLength: 1, maxLength: 60 }),
        fc.array(slipped, { minLength: 1, maxLength: 6 }),
        fc.nat(10),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        (lines, needle, from0, eol, final) => {
          if (lines.at(-1) === '' && !final) final = true; // an empty last line needs its newline
          const table = new LineTable(textOf(lines, eol, final));
          const asLines = table.split(0, table.count).lines;
          const from = Math.min(from0, asLines.length);
          const want = reference(asLines, needle, MATCH_LEVELS, from);
          expect(locateIndexed(table, needle, { from })).toEqual(want);
          expect(locateIndexed(asLines, needle, { from })).toEqual(want);
          if (from === 0) expectSpans(table, needle, want);
        },
      ),
      { numRuns: 1_500 },
    );
  });

  it('locateSpans decides whenever the request has a rare run (it is not a path that never runs)', () => {
    const lines = Array.from({ length: 50 }, () => '}');
    lines[20] = 'done(); ';
    const table = new LineTable(`${lines.join('\n')}\n`);
    const spans = locateSpans(table.text, ['}', 'done();'], MATCH_LEVELS);
    expect(spans).toEqual({
      level: 'trailing_whitespace',
      matches: [{ start: table.offset(19), end: table.offset(21) }],
    });
    expect(locateSpans(table.text, ['}', '}'], MATCH_LEVELS)).toBeUndefined();
  });

  it('walks lines of every length around the 32 characters looked at one by one, both ways', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 70 }), { minLength: 1, maxLength: 12 }),
        fc.nat(20),
        fc.constantFrom('\n', '\r\n'),
        (lengths, pad, eol) => {
          // The request's rare line comes in its middle: its lines before and after are walked from it.
          const block = lengths.map((n, i) => 'y'.repeat(n) + (i % 2 ? ' ' : ''));
          const mid = Math.floor(block.length / 2);
          block[mid] = 'rare();';
          const lines = [...Array.from({ length: pad }, (_, i) => 'z'.repeat(i * 4)), ...block, 'end'];
          const table = new LineTable(lines.join(eol) + eol);
          const needle = block.map((l) => l.trimEnd());
          const want = reference(lines, needle, MATCH_LEVELS, 0);
          expect(want).toBeDefined();
          expectSpans(table, needle, want);
          expect(locateSpans(table.text, needle, MATCH_LEVELS)).not.toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('also when the needle is planted in a file of repeated lines (the text search and the id scan agree)', () => {
    fc.assert(
      fc.property(fc.nat(400), fc.integer({ min: 1, max: 50 }), fc.nat(), (n, k, seed) => {
        const lines = Array.from({ length: n + k }, () => '}');
        const at = seed % (n + 1);
        for (let j = 0; j < k; j++) lines[at + j] = j === k - 1 ? '  done(); ' : '}';
        const needle = [...Array.from({ length: k - 1 }, () => '}'), 'done();'];
        const table = new LineTable(`${lines.join('\n')}\n`);
        const want = reference(lines, needle, MATCH_LEVELS, 0);
        expect(locateIndexed(table, needle)).toEqual(want);
        expect(locateIndexed(lines, needle)).toEqual(want);
        expectSpans(table, needle, want);
      }),
      { numRuns: 300 },
    );
  });
});

/** The definition closestRegion keeps: the best-scoring line by Dice similarity of normalised text. */
function referenceBest(lines: readonly string[], anchor: string): { index: number; score: number } {
  const norm = (s: string) =>
    s
      .replace(/[\u2018\u2019]/g, "'")
      .trim()
      .replace(/\s+/g, ' ');
  let index = -1;
  let score = 0;
  lines.forEach((line, i) => {
    // Its length without indentation and trailing whitespace.
    const len = line.trim().length;
    if (len < anchor.length / 3 || len > anchor.length * 3 + 20) return;
    const s = similarity(anchor, norm(line));
    if (s > score) {
      score = s;
      index = i;
    }
  });
  return { index, score };
}

const words = (s: string) => new Set(s.match(/[\p{L}\p{N}_]{3,}/gu) ?? []);

describe('closestRegion', () => {
  it('scores in place exactly as similarity() on the normalised line, and finds the best line sharing a word with the needle', () => {
    const word = fc.constantFrom(
      'value',
      'compute',
      '(1);',
      "'a'",
      '\u2018a\u2019',
      'x',
      '=',
      '  ',
      '\t',
      'café',
      'é€',
      '😀x',
      '\u3000',
      '\u00a0y',
      '\u2028',
    );
    const line = fc.array(word, { maxLength: 6 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), line, (lines, needleLine) => {
        const anchor = needleLine
          .trim()
          .replace(/\s+/g, ' ')
          .replace(/[\u2018\u2019]/g, "'");
        fc.pre(anchor.length >= 3);
        const got = closestRegion(lines, [needleLine]);
        if (got) {
          // What it reports is the truth about the line it names.
          expect(got.score).toBeGreaterThanOrEqual(0.5);
          const norm = lines[got.startLine - 1]!.replace(/[\u2018\u2019]/g, "'")
            .trim()
            .replace(/\s+/g, ' ');
          expect(got.score).toBeCloseTo(similarity(anchor, norm), 10);
        }
        // Files here are shorter than the hits a piece is followed to: the best line
        // sharing a word with the needle is always seen.
        // (A needle line without such words is looked for by its runs without whitespace.)
        const shared = words(needleLine);
        const runs = (needleLine.match(/\S+/g) ?? []).filter(
          (r) => r.length >= 2 && !/[\u2018\u2019]/.test(r),
        );
        const holds = (l: string) =>
          shared.size > 0 ? [...words(l)].some((w) => shared.has(w)) : runs.some((r) => l.includes(r));
        const sharing = lines.map((l) => (holds(l) ? l : '\u0000'));
        const want = referenceBest(sharing, anchor);
        if (want.index === -1 || want.score < 0.5) expect(got).toBeUndefined();
        else {
          expect(got?.score).toBeCloseTo(want.score, 10);
          expect(got?.startLine).toBe(want.index + 1);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('finds a slipped line in a big file of lines like it, whatever the size', () => {
    const source = (i: number) => `  const value${i} = compute(${i}, "item-${i}");`;
    for (const n of [1_000, 200_000]) {
      const text = `${Array.from({ length: n }, (_, i) => (i % 10 === 9 ? '}' : source(i))).join('\n')}\n`;
      const at = Math.floor(n / 2) + 1;
      const needle = [source(at).replace('compute', 'kompute'), '  missing();', '  return nothing;'];
      const near = closestRegion(new LineTable(text), needle);
      expect(near?.startLine).toBe(at + 1);
      expect(near?.endLine).toBe(at + 3);
      // A typo inside the one rare word: its ends still find the line.
      const typo = [source(at).replace(`value${at}`, `valeu${at}`)];
      expect(closestRegion(new LineTable(text), typo)?.startLine).toBe(at + 1);
    }
  });

  it('a 10 MB line is compared by its start, and still found', () => {
    const long = Array.from({ length: 1_300_000 }, (_, i) => `w${i}`).join(' ');
    const lines = ['a', 'b', long.replace('w5 ', 'w5x '), 'c'];
    expect(closestRegion(lines, [long, 'x'])).toMatchObject({ startLine: 3, endLine: 4 });
  });

  it('a line of symbols is looked for by its runs', () => {
    const lines = ['a', '});', 'b', '  }) ;', 'c'];
    expect(closestRegion(lines, ['  });  '])?.startLine).toBe(2);
  });
});
