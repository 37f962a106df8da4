// rt63: hunks of a staged change set. For change sets of many files of every shape (rt63-shapes: periodic /
// low-entropy text with dense edits, moves, reversed and duplicated blocks, CRLF / lone CR / mixed ends, missing
// final newline, BOM, long lines, astral characters), accepting a random subset of hunks must write exactly the
// base with those hunks applied; accepting all writes the staged text; the hunk counts are near git's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { applyHunksRef, cleanupRt63, gitCounts, hunkCounts, stageWrites } from './rt63-helpers.js';
import { build, shape } from './rt63-shapes.js';

afterEach(cleanupRt63);

describe('rt63 holds: change-set hunks, random subsets accepted', () => {
  it('holds: many files, each base + accepted hunks written exactly; all hunks = staged; near git', async () => {
    let files = 0;
    let hunks = 0;
    let binary = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(shape, fc.nat()), { minLength: 1, maxLength: 6 }), async (specs) => {
        const fs = specs.map(([g], i) => {
          const { before, after } = build(g);
          // a file with NUL bytes is binary: no tool writes over it; use another control character
          const noNul = (t: string) => t.replaceAll('\u0000', '\u0001');
          return { name: `f${i}.txt`, before: noNul(before), after: noNul(after) };
        });
        const s = await stageWrites(fs);
        const decisions: any = { changeSetId: s.set.id, files: {} };
        const expected = new Map<string, string>();
        for (const [i, f] of fs.entries()) {
          const cf = s.set.files.find((x) => x.path === `/${f.name}`);
          if (f.before === f.after) {
            expect(cf, 'unchanged file listed').toBeUndefined();
            continue;
          }
          expect(cf, `changed file missing: ${f.name}`).toBeDefined();
          files++;
          if (cf!.binary) {
            binary++;
            continue;
          }
          hunks += cf!.hunks.length;
          // all hunks give the staged text
          const all = applyHunksRef(f.before, cf!.hunks as any, new Set(cf!.hunks.map((h) => h.id)));
          expect(all, `accept-all != staged for ${JSON.stringify(specs[i])}`).toBe(f.after);
          const hc = hunkCounts(cf!.hunks as any);
          expect([cf!.added, cf!.removed]).toEqual([hc.added, hc.removed]);
          const gc = gitCounts(f.before, f.after);
          expect(
            hc.added + hc.removed,
            `hunks vs git ${JSON.stringify([hc, gc, specs[i]])}`,
          ).toBeLessThanOrEqual(1.1 * (gc.added + gc.removed) + 2);
          // a random subset
          const pick = specs[i]![1];
          const acc = new Set(cf!.hunks.filter((_, k) => ((pick >> (k % 30)) & 1) === 1).map((h) => h.id));
          decisions.files[cf!.path] = {
            action: 'hunks',
            hunks: Object.fromEntries(cf!.hunks.map((h) => [h.id, acc.has(h.id) ? 'accept' : 'reject'])),
            notes: {},
          };
          expected.set(f.name, applyHunksRef(f.before, cf!.hunks as any, acc));
        }
        const res: any = await s.staging.apply(decisions);
        expect(res.ok, JSON.stringify(res.error)).toBe(true);
        for (const [name, want] of expected) {
          const got = readFileSync(join(s.dir, name), 'utf8');
          expect(got === want, `${name}: subset result differs (len ${got.length} vs ${want.length})`).toBe(
            true,
          );
        }
      }),
      { numRuns: 60, seed: 6310 },
    );
    console.log({ files, hunks, binary });
  }, 240_000);
});
