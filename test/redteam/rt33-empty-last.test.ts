// rt33: the unterminated last line of a file replaced by an empty line (the file then ends with the
// previous line's newline), together with a change elsewhere, among equal lines.
import { afterEach, describe, expect, it } from 'vitest';
import { applyShown, checkAgainstTruth, cleanup, runGated, type Tagged } from './rt32-harness.js';
import { sha } from './rt33-util.js';

afterEach(cleanup);

const N = 10;
const lines = Array(N).fill('}');
const before = lines.join('\n'); // no final newline
// True result: line 1 -> "x", lines 2..N-1 kept byte for byte (their newlines included), line N gone.
const truth: Tagged[] = [
  { orig: -1, text: 'x' },
  ...lines.slice(1, -1).map((text, i) => ({ orig: i + 1, text })),
];
const written = `x\n${'}\n'.repeat(N - 2)}`;

describe('rt33 patch_file: empty replacement of the unterminated last line + a change at line 1', () => {
  // BREAK: file = 10 x "}" without a final newline. The model's diff (one hunk, exact numbers):
  //   @@ -1,10 +1,10 @@  -}  +x  (8 x " }")  -}  \ No newline  +  \ No newline
  // i.e. line 1 -> "x", last line -> "" (the file now ends with line 9's newline).
  // Written: "x\n" + 8 x "}\n" (right). Shown (payload.unifiedDiff):
  //   @@ -1,3 +1,4 @@ +x  }  }  }   @@ -6,5 +7,3 @@ }  }  }  -}  -}  \ No newline
  // "x" is shown INSERTED above line 1 (line 1 is shown kept), and lines 9 and 10 deleted: every
  // line between slid down by one; old line 9 (untouched, same bytes) is shown removed.
  it('each change is shown where the hunk puts it', async () => {
    const udiff =
      `--- a/f.txt\n+++ b/f.txt\n@@ -1,${N} +1,${N} @@\n-}\n+x\n${' }\n'.repeat(N - 2)}` +
      '-}\n\\ No newline at end of file\n+\n\\ No newline at end of file\n';
    const r = await runGated(before, 'patch_file', { unified_diff: udiff, base_sha256: sha(before) });
    expect(r.outcome.ok).toBe(true);
    expect(r.after).toBe(written);
    expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after); // holds
    expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]); // fails
  });

  it('same kind of edit with two hunks (context 1), line 1 distinct: bytes and placement', async () => {
    const l2 = ['a', ...lines.slice(1, -2), 'b', '}'];
    const b2 = l2.join('\n');
    const udiff =
      '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-a\n+x\n }\n' +
      `@@ -${N - 1},2 +${N - 1},2 @@\n b\n-}\n\\ No newline at end of file\n+\n\\ No newline at end of file\n`;
    const r = await runGated(b2, 'patch_file', { unified_diff: udiff, base_sha256: sha(b2) });
    expect(r.outcome.ok, JSON.stringify(r.outcome.error)).toBe(true);
    expect(r.after).toBe(`x\n${'}\n'.repeat(N - 3)}b\n`);
    expect(applyShown(b2, r.payload.unifiedDiff)).toBe(r.after);
    expect(checkAgainstTruth(r.payload.unifiedDiff, l2, truth), r.payload.unifiedDiff).toEqual([]);
  });
});

describe('rt33 edit_lines: replace line 1 and replace the unterminated last line with ""', () => {
  it('bytes and placement', async () => {
    const r = await runGated(before, 'edit_lines', (a) => ({
      operations: [
        { op: 'replace_line', hash: a[0], content: 'x' },
        { op: 'replace_line', hash: a[N - 1], content: '' },
      ],
      sanity: 'off',
    }));
    expect(r.outcome.ok, JSON.stringify(r.outcome.error)).toBe(true);
    expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after);
    // '' is one empty line: the last line becomes empty (still unterminated).
    const t: Tagged[] = [...truth];
    if (r.after === `${written}`) void 0;
    else t.push({ orig: -1, text: '' });
    expect(
      checkAgainstTruth(r.payload.unifiedDiff, lines, t),
      `${JSON.stringify(r.after)}\n${r.payload.unifiedDiff}`,
    ).toEqual([]);
  });
});
