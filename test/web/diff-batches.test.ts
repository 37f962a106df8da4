import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BATCH_LINES, firstLines } from '../../src/react/diff-batches.js';
import { type DiffRow, type DiffSegment, diffRows, diffSegments } from '../../src/react/diff-rows.js';
import { DiffView } from '../../src/react/index.js';

const isLine = (r: DiffRow) => r.kind !== 'hunk' && r.kind !== 'note';
const linesOf = (segments: DiffSegment[]) =>
  segments.flatMap((s) => (s.kind === 'rows' ? s.rows.filter(isLine) : []));

/** A diff of `hunks` hunks 20 lines apart, each replacing `changed` lines. */
function bigDiff(hunks: number, changed: number): string {
  let out = '';
  for (let h = 0; h < hunks; h++) {
    const at = 1 + h * (changed + 20);
    out += `@@ -${at},${changed + 1} +${at},${changed + 1} @@\n keep ${at}\n`;
    for (let i = 0; i < changed; i++) out += `-old ${at + 1 + i}\n`;
    for (let i = 0; i < changed; i++) out += `+new ${at + 1 + i}\n`;
  }
  return out;
}

describe('firstLines: a big diff is drawn a batch at a time', () => {
  it('for any diff and limit: the first lines in order, and an exact count of the rest', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 200 }),
        fc.boolean(),
        (hunks, changed, limit, withText) => {
          const rows = diffRows(bigDiff(hunks, changed));
          const newText = withText ? 'l\n'.repeat(hunks * (changed + 20) + 30) : undefined;
          const segments = diffSegments(rows, newText === undefined ? {} : { newText });
          const all = linesOf(segments);
          const { shown, notShown } = firstLines(segments, limit);
          const drawn = linesOf(shown.map((s) => s.segment));
          expect(drawn).toEqual(all.slice(0, drawn.length));
          expect(drawn.length).toBe(Math.min(all.length, limit));
          const rest = all.slice(drawn.length);
          expect(notShown).toEqual({
            lines: rest.length,
            added: rest.filter((r) => r.kind === 'add').length,
            removed: rest.filter((r) => r.kind === 'del').length,
          });
          // Segments keep their place (their React keys) and order; all of them when nothing is cut.
          const indexes = shown.map((s) => s.index);
          expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
          if (notShown.lines === 0) expect(shown.map((s) => s.segment)).toEqual(segments);
          // Nothing after the cut: the last thing drawn is a line of the diff.
          const last = shown.at(-1)?.segment;
          if (notShown.lines > 0) expect(last?.kind === 'rows' && isLine(last.rows.at(-1)!)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('<DiffView> of a big diff (server render)', () => {
  const html = (unifiedDiff: string) => renderToStaticMarkup(createElement(DiffView, { unifiedDiff }));
  const rowCount = (out: string) => out.match(/class="sa-row /g)?.length ?? 0;

  it('draws the first 1,000 lines, says how many are not shown, and offers the next batch', () => {
    // 500 hunks of 1 context + 40 replaced lines: 40,500 lines, 20,000 added and 20,000 removed.
    const out = html(bigDiff(500, 40));
    const hunksDrawn = Math.ceil(BATCH_LINES / 81);
    expect(rowCount(out)).toBe(BATCH_LINES + hunksDrawn);
    const notShown = 40_500 - BATCH_LINES;
    expect(out).toContain(`${notShown.toLocaleString('en-US')} more lines of this diff`);
    expect(out).toContain('(+19,520 −19,493) are not shown yet');
    const button =
      /<button type="button" class="sa-gap sa-show-more" aria-describedby="([^"]+)">(.*?)<\/button>/.exec(
        out,
      );
    expect(button?.[2]).toBe('⋯ Show 1,000 more lines (39,500 not shown yet) ⋯');
    const id = button![1]!;
    expect(out).toContain(`<output id="${id}" class="sa-note sa-not-shown">`);
  });

  it('a diff of up to 1,000 lines is drawn whole, with no note and no button', () => {
    const out = html(bigDiff(10, 49)); // 10 × (1 + 98) = 990 lines
    expect(rowCount(out)).toBe(990 + 10);
    expect(out).not.toContain('not shown yet');
    expect(out).not.toContain('sa-show-more');
  });
});
