// rt35 follow-up: edit_lines at the end of a file over 1 KiB, with and without a final newline.
// Counting the diff's lines from the first change's own offset broke the case of a file that
// ends with a newline (the change starts after it); a random rt32 property found it.
import { afterEach, describe, expect, it } from 'vitest';
import {
  applyLineOps,
  applyShown,
  checkAgainstTruth,
  cleanup,
  type LineOp,
  runGated,
  toolLineOp,
} from './rt32-harness.js';
import { strictApply } from './rt35-harness.js';

afterEach(cleanup);

describe('edit_lines after the last line of a file over 1 KiB', () => {
  for (const ending of ['\n', ''])
    for (const kind of ['insert_after', 'insert_before', 'replace', 'delete'] as const)
      it(`${kind}, file ${ending ? 'with' : 'without'} a final newline: the diff is shown where the edit is made`, async () => {
        const lines = [...Array(30).fill('}'.repeat(40)), '}'];
        const ops = [{ line: lines.length - 1, kind, content: '}' } as LineOp];
        const before = lines.join('\n') + ending;
        const truth = applyLineOps(lines, ops);
        const r = await runGated(before, 'edit_lines', (a: string[]) => ({
          operations: ops.map((o) => toolLineOp(o, a[o.line]!)),
          sanity: 'off',
        }));
        expect(r.outcome.ok).toBe(true);
        expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after);
        // Hunk headers checked strictly: every line number must be where the line is.
        expect(strictApply(before, r.payload.unifiedDiff)).toBe(r.after);
        // A change at an unterminated last line changes its terminator too: the shortest diff may
        // keep it as the new last line (as rt32 notes, "the no-newline marker moves"), so where
        // the lines are shown is checked when the file ends with a newline.
        if (ending) expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
      });
});
