// rt63: staged change sets at scale. Holds: a 100k-line CRLF file with 10k scattered changes is reviewed in well
// under 1 s, its hunks equal git's counts, a random half accepted is written exactly; 100 files with dense edits
// in periodic text, random subsets, exact. Finding: changeSet() of a file whose lines were reversed grows
// super-linearly (0.46 s at 100k, 3.6 s at 500k, 9–12 s at 1M lines) and blocks the event loop throughout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../helpers/seeded-rng.js';
import {
  applyHunksRef,
  cleanupRt63,
  denseEdit,
  gitCounts,
  hunkCounts,
  stageWrites,
  text,
  writePayload,
} from './rt63-helpers.js';

afterEach(cleanupRt63);

const hunkDecision = (hunks: readonly { id: string }[], acc: ReadonlySet<string>) => ({
  action: 'hunks' as const,
  hunks: Object.fromEntries(hunks.map((h) => [h.id, acc.has(h.id) ? 'accept' : 'reject'])),
  notes: {},
});

describe('rt63: change-set review at scale', () => {
  it('holds: 100k-line CRLF file, 10k changes (seed 63): hunks = git counts, half accepted exactly, < 1 s', async () => {
    const r = seededRandom(63);
    const N = 100_000;
    const a = Array.from({ length: N }, (_, i) => `line ${i}`);
    const b = a.slice();
    const pos = [...new Set(Array.from({ length: 12_000 }, () => Math.floor(r() * N)))].slice(0, 10_000);
    for (const p of pos.sort((x, y) => y - x)) {
      const x = r();
      if (x < 0.33) b.splice(p, 1);
      else if (x < 0.66) b.splice(p, 1, `chg ${p}`);
      else b.splice(p, 0, `ins ${p}`);
    }
    const before = text(a, '\r\n');
    const after = text(b, '\r\n');
    const s = await stageWrites([{ name: 'f.txt', before, after }]);
    const f = s.set.files[0]!;
    const h = hunkCounts(f.hunks as any);
    const g = gitCounts(before, after);
    const acc = new Set(f.hunks.filter(() => r() < 0.5).map((x) => x.id));
    const want = applyHunksRef(before, f.hunks as any, acc);
    const t0 = performance.now();
    const res: any = await s.staging.apply({
      changeSetId: s.set.id,
      files: { '/f.txt': hunkDecision(f.hunks, acc) },
    } as any);
    const applyMs = performance.now() - t0;
    console.log({
      hunks: f.hunks.length,
      h,
      git: [g.added, g.removed],
      changeSetMs: Math.round(s.ms),
      applyMs: Math.round(applyMs),
    });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect([h.added, h.removed]).toEqual([g.added, g.removed]);
    expect(readFileSync(join(s.dir, 'f.txt'), 'utf8') === want).toBe(true);
    expect(s.ms).toBeLessThan(1000);
    expect(applyMs).toBeLessThan(1000);
  }, 60_000);

  it('holds: 100 files of periodic text (periods 1..200), 5–40% edited, random hunk subsets: exact', async () => {
    const r = seededRandom(64);
    const files = Array.from({ length: 100 }, (_, i) => {
      const p = 1 + Math.floor(r() * 200);
      const blk = Array.from({ length: p }, (_, k) => (k % 3 === 0 ? '}' : `x${k % 7}`));
      const a = Array.from({ length: 500 + Math.floor(r() * 2500) }, (_, k) => blk[k % p]!);
      const b = denseEdit(a, r, 0.05 + r() * 0.35, blk);
      const eol = ['\n', '\r\n'][i % 2]!;
      return {
        name: `f${i}.txt`,
        before: text(a, eol),
        after: text(b, eol).slice(0, i % 3 === 0 ? -eol.length : undefined),
      };
    });
    const s = await stageWrites(files);
    const decisions: any = { changeSetId: s.set.id, files: {} };
    const want = new Map<string, string>();
    let hunks = 0;
    for (const f of files) {
      const cf = s.set.files.find((x) => x.path === `/${f.name}`)!;
      hunks += cf.hunks.length;
      const acc = new Set(cf.hunks.filter(() => r() < 0.5).map((x) => x.id));
      decisions.files[cf.path] = hunkDecision(cf.hunks, acc);
      want.set(f.name, applyHunksRef(f.before, cf.hunks as any, acc));
      const g = gitCounts(f.before, f.after);
      const h = hunkCounts(cf.hunks as any);
      expect(h.added + h.removed).toBeLessThanOrEqual(1.1 * (g.added + g.removed) + 2);
    }
    const res: any = await s.staging.apply(decisions);
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    for (const [name, w] of want) expect(readFileSync(join(s.dir, name), 'utf8') === w, name).toBe(true);
    console.log({ files: files.length, hunks, changeSetMs: Math.round(s.ms) });
  }, 120_000);

  it('FINDING: changeSet() of a 1M-line file rewritten with its lines reversed takes 8.8–12 s (super-linear)', async () => {
    const times: Record<number, number> = {};
    for (const N of [100_000, 1_000_000]) {
      const a = Array.from({ length: N }, (_, i) => `a${i}`);
      const before = text(a);
      const after = text(a.slice().reverse());
      const s = await stageWrites([{ name: 'f.txt', before, after }]);
      times[N] = Math.round(s.ms);
      const h = hunkCounts(s.set.files[0]!.hunks as any);
      expect([h.added, h.removed]).toEqual([N - 1, N - 1]); // holds: minimal (one line kept)
      if (N === 1_000_000) {
        const p = await writePayload(before, after);
        console.log('reversed:', {
          changeSetMs: times,
          writePayloadMs: Math.round(p.ms),
          lib: [p.added, p.removed],
        });
      }
      cleanupRt63();
    }
    // actual: 100k ~0.46 s, 250k ~1.25 s, 500k ~3.6 s, 1M ~8.8–12.1 s (write_file's payload of the same 1M pair:
    // ~1.5 s; git diff --no-index ~5.8 s)
    // Now ~0.2 s at 100k and ~1–2 s at 1M; the bound leaves room for a loaded machine (the suite runs
    // files side by side), and a ratio of two timings of one run moved too much with load to assert.
    expect(times[1_000_000]!).toBeLessThan(6000);
  }, 180_000);
});
