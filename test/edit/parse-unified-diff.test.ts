import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hunkLines, parseLooseDiff } from '../../src/edit/parse-unified-diff.js';

// The parser keeps hunk lines as offsets in typed arrays. This pins it to the plain
// reading of the same rules: one object per line, on the diff split into lines.
const HUNK_HEADER = /^@@\s*(?:-(\d+)(?:,(\d+))?)?\s*(?:\+(\d+)(?:,(\d+))?)?\s*@@/;
const FILE_HEADER =
  /^(diff --git |index [0-9a-f]|new file mode|deleted file mode|similarity index|rename (from|to) |old mode|new mode)/;

function reference(diff: string) {
  const raw = diff.replaceAll('\r\n', '\n').split('\n');
  if (raw.at(-1) === '') raw.pop();
  type Line = { kind: string; text: string; blankPast?: boolean };
  type Hunk = { index: number; oldStart?: number; lines: Line[] };
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  // What the header's counts leave on each side (undefined: none given).
  let left: { old: number; new: number } | undefined;
  const start = (m?: RegExpExecArray | null) => {
    const oldStart = m?.[1] === undefined ? undefined : Number(m[1]);
    current = { index: hunks.length + 1, ...(oldStart === undefined ? {} : { oldStart }), lines: [] };
    hunks.push(current);
    left =
      m?.[1] !== undefined && m[3] !== undefined
        ? { old: Number(m[2] ?? 1), new: Number(m[4] ?? 1) }
        : undefined;
  };
  const add = (kind: string, text: string, bare: boolean) => {
    const blankPast = bare && text === '' && left?.old === 0 && left.new === 0;
    if (left && kind !== '+') left.old = Math.max(0, left.old - 1);
    if (left && kind !== '-') left.new = Math.max(0, left.new - 1);
    current!.lines.push({ kind, text, blankPast });
  };
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!;
    if (line.startsWith('@@')) {
      start(HUNK_HEADER.exec(line));
      continue;
    }
    const inside = current !== undefined && left !== undefined && left.old > 0 && left.new > 0;
    if (line.startsWith('--- ') && raw[i + 1]?.startsWith('+++ ') && !inside) {
      i++;
      current = undefined;
      left = undefined;
      continue;
    }
    if (FILE_HEADER.test(line) && (current === undefined || current.lines.length === 0)) continue;
    if (line.startsWith('\\')) continue;
    if (!current) {
      if (line.startsWith('---') || line.startsWith('+++')) continue;
      start();
    }
    const kind = line[0];
    if (kind === ' ' || kind === '-' || kind === '+') add(kind, line.slice(1), false);
    else add(' ', line, true);
  }
  // Blank lines past the counts that end a hunk are not its lines.
  for (const h of hunks) while (h.lines.at(-1)?.blankPast) h.lines.pop();
  return hunks
    .filter((h) => h.lines.some((l) => l.kind !== ' '))
    .map((h) => ({ ...h, lines: h.lines.map(({ kind, text }) => ({ kind, text })) }));
}

const piece = fc.constantFrom(
  '@@ -3,2 +3,3 @@',
  '@@ @@',
  '@@ -x @@',
  '@@ -1 +1 @@',
  '@@ -1,0 +1,2 @@',
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
