import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { seededRandom } from '../helpers/seeded-rng.js';

// rt61: write_file's approval diff on a periodic low-entropy file ('}', '', '  return;', '{' repeating)
// with ~1% of the lines deleted (or inserted) at random places showed phantom additions and extra
// removals: the diff applied, but a pure deletion of k lines was shown as +x -(k+x) (the walk took a
// sync point one period off). rt48 holds the same promise for evenly spaced deletions.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const PERIODS = [
  ['}', '', '  return;', '{'],
  ['}', '', '{'],
];

/** The approval payload of writing `b` over `a` (lines), read whole from a dry run, checked to apply. */
async function payloadOf(
  a: readonly string[],
  b: readonly string[],
): Promise<{ added: number; removed: number }> {
  const dir = mkdtempSync(join(os.tmpdir(), 'rt61-'));
  dirs.push(dir);
  const before = `${a.join('\n')}\n`;
  const after = `${b.join('\n')}\n`;
  writeFileSync(join(dir, 'f.txt'), before);
  // The whole diff in the dry run's payload (it is cut for the model at readMaxChars).
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    limits: { readMaxChars: 1 << 24 },
  });
  const o = (await ts.callTool('write_file', { path: '/f.txt', content: after, dryRun: true })) as {
    ok: boolean;
    data: { payload: { added: number; removed: number; unifiedDiff: string } };
  };
  expect(o.ok).toBe(true);
  const p = o.data.payload;
  expect(applyPatch(before, p.unifiedDiff)).toBe(after);
  return p;
}

describe('rt61: write_file payload diff of random deletions in a periodic file', () => {
  for (const [n, period, seed] of [
    [200, 0, 3],
    [10_000, 0, 3],
    [100_000, 0, 3],
    [10_000, 1, 5],
    [100_000, 1, 7],
  ] as const) {
    it(`n=${n}, period ${PERIODS[period]!.length}: deleting ~1% of lines at random shows only those removals`, async () => {
      const a = Array.from({ length: n }, (_, i) => PERIODS[period]![i % PERIODS[period]!.length]!);
      const r = seededRandom(seed);
      const b = a.filter(() => r() > 0.01);
      const p = await payloadOf(a, b);
      expect([p.added, p.removed]).toEqual([0, n - b.length]);
    });
  }

  it('inserting ~1% of lines at random shows only those additions', async () => {
    const a = Array.from({ length: 20_000 }, (_, i) => PERIODS[0]![i % 4]!);
    const r = seededRandom(11);
    const b = a.flatMap((line) => (r() < 0.01 ? [PERIODS[0]![Math.floor(r() * 4)]!, line] : [line]));
    const p = await payloadOf(a, b);
    expect([p.added, p.removed]).toEqual([b.length - a.length, 0]);
  });
});
