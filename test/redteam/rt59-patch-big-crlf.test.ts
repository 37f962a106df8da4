// Red team rt59: big CRLF (and mixed) diffs through patch_file, against GNU patch --binary where
// it applies, and against the documented rule (new lines end as a uniform file's) where GNU
// cannot (the model's LF diff of a CRLF file). All of these held.
import { describe, expect, it } from 'vitest';
import { gitRepoDiff, gnuDiff, gnuPatch, patchFile } from './rt59-helpers.js';

const N = 20_000;
const lines = Array.from({ length: N }, (_, i) => `line ${i} ${'x'.repeat(i % 7)}`);
const crlf = `${lines.join('\r\n')}\r\n`;
const changed = lines.map((l, i) => (i % 10 === 3 ? `${l} CHANGED` : l));
const newCrlf = `${changed.join('\r\n')}\r\n`;
const lf = (s: string) => s.replaceAll('\r\n', '\n');
const inserted = (block: string[]) =>
  `${[...lines.slice(0, 100), ...block, ...lines.slice(100)].join('\r\n')}\r\n`;

async function expectPatch(oldT: string, diff: string, want: string, gnu = true): Promise<void> {
  if (gnu) expect(gnuPatch(oldT, diff, { binary: true }) === want).toBe(true);
  const r = await patchFile(oldT, diff);
  expect(r.ok, r.message).toBe(true);
  expect(r.after === want).toBe(true);
}

describe('rt59 patch_file: big CRLF diffs (held)', () => {
  it('20k-line CRLF file, every 10th line changed: diff -u of the bytes', async () => {
    await expectPatch(crlf, gnuDiff(crlf, newCrlf), newCrlf);
  }, 60_000);

  it('the same through `git diff` (index line, a/ b/ prefixes)', async () => {
    await expectPatch(crlf, gitRepoDiff(crlf, newCrlf), newCrlf);
  }, 60_000);

  it("the same as the model's LF diff (2,000 hunks whose lines lost their CR)", async () => {
    await expectPatch(crlf, gnuDiff(lf(crlf), lf(newCrlf)), newCrlf, false);
  }, 60_000);

  it('15k inserted lines: ASCII, non-ASCII, lone CRs and CR CR LF inside the block', async () => {
    const blocks = [
      Array.from({ length: 15_000 }, (_, i) => `new ${i}`),
      Array.from({ length: 15_000 }, (_, i) => `nëw ${i} ✓`),
      Array.from({ length: 15_000 }, (_, i) => `n\r${i}${i % 3 === 0 ? '\r' : ''}`),
      Array.from({ length: 15_000 }, (_, i) => `n\r${i}é${i % 3 === 0 ? '\r' : ''}`),
    ];
    for (const block of blocks) {
      const want = inserted(block);
      await expectPatch(crlf, gnuDiff(crlf, want), want);
    }
    await expectPatch(crlf, gnuDiff(lf(crlf), lf(inserted(blocks[1]!))), inserted(blocks[1]!), false);
  }, 120_000);

  it('delete every line of a 20k-line CRLF file, with and without its final newline', async () => {
    await expectPatch(crlf, gnuDiff(crlf, ''), '');
    await expectPatch(crlf.slice(0, -2), gnuDiff(crlf.slice(0, -2), ''), '');
  }, 60_000);

  it('create a 20k-line CRLF file, with and without a final newline', async () => {
    await expectPatch('', gnuDiff('', crlf), crlf);
    await expectPatch('', gnuDiff('', crlf.slice(0, -2)), crlf.slice(0, -2));
  }, 60_000);

  it('drop / add the final newline of a 20k-line CRLF file', async () => {
    await expectPatch(crlf, gnuDiff(crlf, crlf.slice(0, -2)), crlf.slice(0, -2));
    await expectPatch(crlf.slice(0, -2), gnuDiff(crlf.slice(0, -2), crlf), crlf);
  }, 60_000);

  it('20k-line mixed file (LF and CRLF alternating): diff of the bytes, and the model LF diff', async () => {
    const mixed = lines.map((l, i) => l + (i % 2 ? '\r\n' : '\n')).join('');
    const mixedNew = changed.map((l, i) => l + (i % 2 ? '\r\n' : '\n')).join('');
    await expectPatch(mixed, gnuDiff(mixed, mixedNew), mixedNew);
    // Only changed lines, each keeping its own end: every line end is the old one.
    await expectPatch(mixed, gnuDiff(lf(mixed), lf(mixedNew)), mixedNew, false);
  }, 120_000);
});
