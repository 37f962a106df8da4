// rt62: write_file's approval diff (payload.unifiedDiff / added / removed) on low-entropy text with a
// moderate density of edits. rt61 held ~1% random deletions in periodic files; at 10–20% the diff falls
// apart: a period-3 file of 850 lines with 99 lines deleted is shown as +709 −808 (the whole file
// replaced), with diffCoarse false and in a few ms, so it is not the time budget. Same for random
// replacements / insertions in periodic text and low-entropy random text. Separately, unique-line files
// with dense changes take ~3 s at 100k lines (budget diffTimeBudgetMs is 300 ms, not marked coarse).
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../helpers/seeded-rng.js';
import { applies, cleanupRt62, gitCounts, myersCounts, text, writePayload } from './rt62-helpers.js';

afterEach(cleanupRt62);

const periodic = (n: number, p: number) => Array.from({ length: n }, (_, i) => String(i % p));

describe('rt62: write_file payload diff at moderate edit density', () => {
  it('FINDING: period-3 file, 850 lines, 10% of lines deleted (seed 1) is shown as a pure deletion', async () => {
    const r = seededRandom(1);
    const a = periodic(850, 3);
    const b = a.filter(() => r() >= 0.1);
    const before = text(a);
    const after = text(b);
    const p = await writePayload(before, after);
    console.log('period 3, n=850:', {
      lib: [p.added, p.removed],
      coarse: p.diffCoarse,
      minimal: [0, a.length - b.length],
      ms: Math.round(p.ms),
    });
    expect(applies(before, after, p.unifiedDiff)).toBe(true); // holds: it is exact
    // actual: +709 −808 (hunks "@@ -1,4 +1,713 @@" then "@@ -38,813 +747,5 @@"), diffCoarse false
    expect([p.added, p.removed]).toEqual([0, a.length - b.length]);
  });

  it('FINDING: period-7 file, 3,000 lines, 10% of lines replaced by "X" (seed 2): near the Myers count', async () => {
    const r = seededRandom(2);
    const a = periodic(3000, 7);
    const b = a.map((l) => (r() < 0.1 ? 'X' : l));
    const before = text(a);
    const after = text(b);
    const p = await writePayload(before, after);
    const m = myersCounts(before, after);
    console.log('period 7 replace 10%:', {
      lib: [p.added, p.removed],
      myers: [m.added, m.removed],
      coarse: p.diffCoarse,
    });
    expect(applies(before, after, p.unifiedDiff)).toBe(true);
    expect(p.added + p.removed).toBeLessThanOrEqual(1.25 * (m.added + m.removed) + 10);
  });

  it('FINDING: period-3 file, 10,000 lines, 10% random insertions of period lines (seed 3): no removals shown', async () => {
    const r = seededRandom(3);
    const a = periodic(10_000, 3);
    const b = a.flatMap((l) => (r() < 0.1 ? [String(Math.floor(r() * 3)), l] : [l]));
    const before = text(a);
    const after = text(b);
    const p = await writePayload(before, after);
    const g = gitCounts(before, after);
    console.log('period 3 insert 10%:', {
      lib: [p.added, p.removed],
      git: [g.added, g.removed],
      inserted: b.length - a.length,
    });
    expect(applies(before, after, p.unifiedDiff)).toBe(true);
    expect(p.removed).toBeLessThanOrEqual(g.removed + 10);
    expect(p.added).toBeLessThanOrEqual(1.25 * g.added);
  });

  it('FINDING: random lines over {a,b,c}, 10,000 lines, 10% deleted + 10% inserted (seed 4): near the Myers count', async () => {
    const r = seededRandom(4);
    const a = Array.from({ length: 10_000 }, () => 'abc'[Math.floor(r() * 3)]!);
    const b = a.flatMap((l) => {
      const x = r();
      return x < 0.1 ? [] : x < 0.2 ? ['a', l] : [l];
    });
    const before = text(a);
    const after = text(b);
    const p = await writePayload(before, after);
    const m = myersCounts(before, after);
    console.log('rand3 20%:', {
      lib: [p.added, p.removed],
      myers: [m.added, m.removed],
      ms: Math.round(p.ms),
    });
    expect(applies(before, after, p.unifiedDiff)).toBe(true);
    expect(p.added + p.removed).toBeLessThanOrEqual(1.25 * (m.added + m.removed) + 10);
  });

  it('FINDING: 100k unique lines, 25% deleted + 25% new lines inserted (seed 5): diff under 1 s (git: ~40 ms)', async () => {
    const r = seededRandom(5);
    const a = Array.from({ length: 100_000 }, (_, i) => `u${i}`);
    const b = a.flatMap((l) => {
      const x = r();
      return x < 0.25 ? [] : x < 0.5 ? [`n${x}`, l] : [l];
    });
    const before = text(a);
    const after = text(b);
    const p = await writePayload(before, after);
    const g = gitCounts(before, after);
    console.log('uniq 50% at 100k:', {
      lib: [p.added, p.removed],
      git: [g.added, g.removed],
      coarse: p.diffCoarse,
      ms: Math.round(p.ms),
    });
    expect(applies(before, after, p.unifiedDiff)).toBe(true);
    expect(p.ms).toBeLessThan(1000); // actual ~2.2–3 s, diffCoarse not set (diffTimeBudgetMs is 300)
  });

  it('FINDING: period-2 file ("a","b"), 100k lines, 15% deleted + 15% period lines inserted (seed 6): under 1 s', async () => {
    const r = seededRandom(6);
    const a = periodic(100_000, 2).map((x) => 'ab'[Number(x)]!);
    const b = a.flatMap((l) => {
      const x = r();
      return x < 0.15 ? [] : x < 0.3 ? ['ab'[Math.floor(r() * 2)]!, l] : [l];
    });
    const before = text(a);
    const after = text(b);
    const p = await writePayload(before, after);
    const g = gitCounts(before, after);
    console.log('period 2 dense at 100k:', {
      lib: [p.added, p.removed],
      git: [g.added, g.removed],
      coarse: p.diffCoarse,
      ms: Math.round(p.ms),
    });
    expect(applies(before, after, p.unifiedDiff)).toBe(true);
    expect(p.ms).toBeLessThan(1000); // actual ~10–11 s (2.4 s at 25k lines), diffCoarse not set
  }, 120_000);

  it('FINDING: a random 200-line block (lines "l0".."l9") repeated 10 times, 10% deleted + 10% inserted (seed 7)', async () => {
    const r = seededRandom(7);
    const block = Array.from({ length: 200 }, () => `l${Math.floor(r() * 10)}`);
    const a = Array.from({ length: 2000 }, (_, i) => block[i % 200]!);
    const b = a.flatMap((l) => {
      const x = r();
      return x < 0.1 ? [] : x < 0.2 ? [`l${Math.floor(r() * 10)}`, l] : [l];
    });
    const before = text(a);
    const after = text(b);
    const p = await writePayload(before, after);
    const m = myersCounts(before, after);
    const g = gitCounts(before, after);
    console.log('repeated random block:', {
      lib: [p.added, p.removed],
      myers: [m.added, m.removed],
      git: [g.added, g.removed],
      coarse: p.diffCoarse,
    });
    expect(applies(before, after, p.unifiedDiff)).toBe(true);
    // actual: +1453 −1469 (git +197 −213); at 100k lines (a 5,000-line block ×20) +77,692 −77,559 vs git +10,012 −9,879
    expect(p.added + p.removed).toBeLessThanOrEqual(1.25 * (m.added + m.removed) + 10);
  });
});
