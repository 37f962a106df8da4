import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hunkLines, parseLooseDiff } from '../../src/edit/parse-unified-diff.js';

// The parser keeps hunk lines as offsets in typed arrays. This pins it to the plain
// reading of the same rules: one object per line, on the diff split into lines.
const HUNK_HEADER = /^@@\s*(?:-(\d+)(?:,\d+)?)?\s*(?:\+\d+(?:,\d+)?)?\s*@@/;
const FILE_HEADER =
  /^(diff --git |index [0-9a-f]|new file mode|deleted file mode|similarity index|rename (from|to) |old mode|new mode)/;

function reference(diff: string) {
  const raw = diff.replaceAll('\r\n', '\n').split('\n');
  if (raw.at(-1) === '') raw.pop();
  type Hunk = { index: number; oldStart?: number; lines: Array<{ kind: string; text: string }> };
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  const start = (oldStart?: number) => {
    current = { index: hunks.length + 1, ...(oldStart === undefined ? {} : { oldStart }), lines: [] };
    hunks.push(current);
  };
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!;
    if (line.startsWith('@@')) {
      const m = HUNK_HEADER.exec(line);
      start(m?.[1] === undefined ? undefined : Number(m[1]));
      continue;
    }
    if (line.startsWith('--- ') && raw[i + 1]?.startsWith('+++ ')) {
      i++;
      current = undefined;
      continue;
    }
    if (FILE_HEADER.test(line) && (current === undefined || current.lines.length === 0)) continue;
    if (line.startsWith('\\')) continue;
    if (!current) {
      if (line.startsWith('---') || line.startsWith('+++')) continue;
      start();
    }
    const kind = line[0];
    if (kind === ' ' || kind === '-' || kind === '+') current!.lines.push({ kind, text: line.slice(1) });
    else current!.lines.push({ kind: ' ', text: line });
  }
  return hunks.filter((h) => h.lines.some((l) => l.kind !== ' '));
}

const piece = fc.constantFrom(
  '@@ -3,2 +3,3 @@',
  '@@ @@',
  '@@ -x @@',
  '--- a/f',
  '+++ b/f',
  '---',
  '+++',
  '--- ',
  'diff --git a/f b/f',
  'index 0123abc..4567def',
  'new file mode 100644',
  '\\ No newline at end of file',
  ' ctx',
  ' ',
  '',
  '-old',
  '-- x',
  '+new',
  '++ y',
  '+',
  '-',
  'bare',
  'é → x',
);

describe('parseLooseDiff', () => {
  it('reads every diff as the line-by-line rules do (headers, markers, bare context, CRLF, no final newline)', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        (lines, eol, finalNewline) => {
          const diff = lines.join(eol) + (finalNewline ? eol : '');
          const got = parseLooseDiff(diff).map((h) => ({
            index: h.index,
            ...(h.oldStart === undefined ? {} : { oldStart: h.oldStart }),
            lines: hunkLines(h),
          }));
          expect(got).toEqual(reference(diff));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
