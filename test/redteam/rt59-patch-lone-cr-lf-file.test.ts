// Red team rt59: an LF file whose last line ends with a lone CR and no LF ("x\na\r"). A diff of
// the bytes that only adds the final newline (`-a\r` + marker, `+a\r`) keeps the line's text and
// adds an LF after it (GNU patch: "x\na\r\n"); patch_file drops the CR: a byte of a line the hunk
// removes and adds back unchanged is lost (docs: such lines "are written as the file has them").
import { describe, expect, it } from 'vitest';
import { gitRepoDiff, gnuDiff, gnuPatch, patchFile } from './rt59-helpers.js';

const cases: Array<[string, string, string]> = [
  ['add the final newline', 'x\na\r', 'x\na\r\n'],
  ['add the final newline and a line', 'x\na\r', 'x\na\r\nb\n'],
  ['add the final newline, more context', 'x\ny\nz\na\r', 'x\ny\nz\na\r\n'],
];

describe('rt59 patch_file: lone-CR last line of an LF file, final newline added', () => {
  for (const [name, oldT, newT] of cases) {
    for (const [g, make] of [
      ['diff -u', () => gnuDiff(oldT, newT, ['-u'])],
      ['diff -U0', () => gnuDiff(oldT, newT, ['-U0'])],
      ['git diff', () => gitRepoDiff(oldT, newT)],
    ] as const) {
      it(`${name} (${g}): ${JSON.stringify(oldT)} -> ${JSON.stringify(newT)}`, async () => {
        const diff = make();
        expect(gnuPatch(oldT, diff, { binary: true })).toBe(newT);
        const r = await patchFile(oldT, diff);
        // Now: ok, but the CR is gone ("x\na\n", "x\na\nb\n", "x\ny\nz\na\n").
        if (r.ok) expect(JSON.stringify(r.after)).toBe(JSON.stringify(newT));
        else expect(r.after).toBe(oldT);
      });
    }
  }

  it('held: the same line in a CRLF file (cut at its final LF) gets its LF back', async () => {
    const oldT = 'x\r\na\r\r';
    const newT = 'x\r\na\r\r\n';
    const r = await patchFile(oldT, gnuDiff(oldT, newT));
    expect(r.ok).toBe(true);
    expect(r.after).toBe(newT);
  });

  it('held: an LF file with a lone-CR last line, another line changed, keeps the CR', async () => {
    const oldT = 'x\ny\na\r';
    const newT = 'X\ny\na\r';
    const r = await patchFile(oldT, gnuDiff(oldT, newT));
    expect(r.ok).toBe(true);
    expect(r.after).toBe(newT);
  });
});
