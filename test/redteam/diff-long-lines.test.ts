import { afterEach, describe, expect, it } from 'vitest';
import { checkDiff, cleanup, runGated } from './diff-harness.js';

afterEach(cleanup);

const MB10 = 10 * 1024 * 1024;

describe('long lines (10 MB) differing near multiples of 4096', () => {
  for (const fill of ['x', 'é', '😀']) {
    for (const off of [4095, 4096, 4097, 8191, 8192, MB10 / 2, MB10 - 4096, MB10 - 1]) {
      it(`fill ${JSON.stringify(fill)} change at ${off}`, async () => {
        const unit = fill.length;
        const n = Math.floor(MB10 / (unit * 3)); // keep within 64 MiB across both copies
        const line = fill.repeat(n);
        let at = Math.min(off, line.length - unit);
        at -= at % unit; // whole characters (a 😀 is two UTF-16 units)
        const other = `${line.slice(0, at)}${unit === 2 ? '😁' : 'Q'}${line.slice(at + unit)}`;
        const before = `head\n${line}\n${line}\ntail`;
        const after = `head\n${line}\n${other}\ntail`;
        const r = await runGated(before, 'write_file', { content: after });
        expect(r.outcome.ok).toBe(true);
        expect(checkDiff(r)).toEqual([]);
        const p = r.payload as any;
        expect([p.added, p.removed]).toEqual([1, 1]);
        const e = await runGated(before, 'edit_file', {
          old_string: `${line}\ntail`,
          new_string: `${other}\ntail`,
        });
        if (e.outcome.ok) {
          expect(e.after).toBe(after);
          expect(checkDiff(e)).toEqual([]);
        }
        cleanup();
      }, 60_000);
    }
  }
});
