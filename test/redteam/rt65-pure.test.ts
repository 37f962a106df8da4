// rt65: a pure deletion or insertion (one text a subsequence of the other) must show as only removals
// or only additions, near git, not coarse, through write_file. Regenerated from fixed seeds (rt65-cases.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { applyUnified, cleanupRt64, gitNumstat, nearGit, writePayload } from './rt64-helpers.js';
import { purePair } from './rt65-cases.js';

afterEach(cleanupRt64);

describe('rt65: pure deletions and insertions at scale', () => {
  it('FINDING: 50,000 lines of 2 distinct lines in random order, 20% of lines deleted (10,077, seed 1): ours +10,735 −20,812 vs git +3,932 −14,009, both not pure', async () => {
    const c = purePair({ k: 'few', n: 2 }, 50_000, 1, 'del');
    expect(c.changed).toBe(10_077);
    const p = await writePayload(c.before, c.after);
    const g = gitNumstat(c.before, c.after);
    expect(applyUnified(c.before, p.unifiedDiff)).toBe(c.after);
    // Observed: ours +10,735 −20,812 (31,547 lines, 1.76× git's 17,941) in ~0.6 s; git 0.1 s.
    expect({ added: p.added, removed: p.removed, coarse: p.coarse }).toEqual({
      added: 0,
      removed: 10_077,
      coarse: false,
    });
    expect(nearGit(p, g)).toBe(true);
  }, 60_000);

  it('FINDING: 200,000 lines of 3 distinct lines in random order, 20% deleted (39,900, seed 1): ours +5,765 −45,665 where git shows the pure deletion +0 −39,900', async () => {
    const c = purePair({ k: 'few', n: 3 }, 200_000, 1, 'del');
    expect(c.changed).toBe(39_900);
    const p = await writePayload(c.before, c.after);
    const g = gitNumstat(c.before, c.after);
    expect(g).toMatchObject({ added: 0, removed: 39_900 });
    expect(applyUnified(c.before, p.unifiedDiff)).toBe(c.after);
    // Observed: ours +5,765 −45,665, not coarse, ~0.8 s (git 0.2 s).
    expect({ added: p.added, removed: p.removed, coarse: p.coarse }).toEqual({
      added: 0,
      removed: 39_900,
      coarse: false,
    });
  }, 60_000);

  it('FINDING: 200,000 lines of 2 distinct lines, 20% more of its own lines inserted (39,970, seed 1): ours diffCoarse +73,977 −34,007 vs git +40,154 −184 in 0.25 s', async () => {
    const c = purePair({ k: 'few', n: 2 }, 200_000, 1, 'ins');
    expect(c.changed).toBe(39_970);
    const p = await writePayload(c.before, c.after);
    const g = gitNumstat(c.before, c.after);
    expect(applyUnified(c.before, p.unifiedDiff)).toBe(c.after);
    // Observed: coarse, +73,977 −34,007 (108k lines, 2.7× git's 40,338), ~1.1 s.
    expect(p.coarse).toBe(false);
    expect(nearGit(p, g)).toBe(true);
    expect({ added: p.added, removed: p.removed }).toEqual({ added: 39_970, removed: 0 });
  }, 60_000);

  it("FINDING: 100,000 lines of period 7, 20% of lines deleted (19,824, seed 1): shown as +8,294 −28,118 (= git's heuristic), not as the pure deletion", async () => {
    const c = purePair({ k: 'periodic', p: 7 }, 100_000, 1, 'del');
    expect(c.changed).toBe(19_824);
    const p = await writePayload(c.before, c.after);
    expect(applyUnified(c.before, p.unifiedDiff)).toBe(c.after);
    // Observed: +8,294 −28,118, not coarse, ~0.35 s; git 0.1 s gives the same counts. The promise is a pure
    // deletion shown as one at any size up to ~1M lines (git does not take seconds here).
    expect({ added: p.added, removed: p.removed, coarse: p.coarse }).toEqual({
      added: 0,
      removed: 19_824,
      coarse: false,
    });
  }, 60_000);
});
