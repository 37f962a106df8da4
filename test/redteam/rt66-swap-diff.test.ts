// rt66: two 1% blocks of distinct lines swapped far apart (every line of the file unique).
//
// Promise 3: the approval payload's diff is proportionate — a small change shows about that many lines,
// never the whole file (or most of it) removed and re-added; a coarse fallback is per region and says so.
//
// Input: N lines `line number <i> with some text` (all distinct); the block of N/100 lines at 20% and the
// block of N/100 lines at 80% trade places. Minimal diff: 2 × N/100 added + 2 × N/100 removed (what
// `git diff --patience` and `--histogram` give: +2,000 −2,000 at N = 100k).
// Observed: write_file's payload at N = 100k is +60,000 −60,000, not coarse (the whole 60% between the
// two blocks removed and added back); at N = 1M +610,000 −610,000 with diffCoarse: true.
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { applyUnified, cleanupRt64, toolset } from './rt64-helpers.js';

afterEach(cleanupRt64);

function swapped(n: number) {
  const k = n / 100;
  const lines = Array.from({ length: n }, (_, i) => `line number ${i} with some text`);
  const a = n * 0.2;
  const b = n * 0.8;
  const after = [
    ...lines.slice(0, a),
    ...lines.slice(b, b + k),
    ...lines.slice(a + k, b),
    ...lines.slice(a, a + k),
    ...lines.slice(b + k),
  ];
  return { before: `${lines.join('\n')}\n`, after: `${after.join('\n')}\n`, k };
}

describe('rt66: swap of two 1% blocks of unique lines', () => {
  it('FINDING: write_file dry-run payload at 100k lines shows +60,000 −60,000 (minimal +2,000 −2,000)', async () => {
    const { before, after, k } = swapped(100_000);
    const { ts } = toolset(before);
    const o: any = await ts.callTool('write_file', { path: '/f.txt', content: after, dryRun: true });
    expect(o.ok).toBe(true);
    const p = o.data.payload;
    expect(applyUnified(before, p.unifiedDiff)).toBe(after); // exact: it holds
    // Proportionate: at most twice the minimal 4k lines (2% of the file each way).
    expect(p.added + p.removed, `+${p.added} −${p.removed} coarse=${p.diffCoarse}`).toBeLessThanOrEqual(
      8 * k,
    );
  }, 60_000);

  it('FINDING: the same through ApprovalToolset (the diff the person is shown)', async () => {
    const { before, after, k } = swapped(100_000);
    const { dir, read } = toolset(before);
    const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
      limits: { maxFileBytes: 1 << 29 },
    });
    let shown: any;
    const gated = new ApprovalToolset(ts, {
      approve: (req: any) => {
        shown = { added: req.payload.added, removed: req.payload.removed, diff: req.payload.unifiedDiff };
        return { approved: true };
      },
    });
    const o: any = await gated.callTool('write_file', { path: '/f.txt', content: after });
    expect(o.ok).toBe(true);
    expect(read().toString()).toBe(after);
    expect(applyUnified(before, shown.diff)).toBe(after);
    expect(shown.added + shown.removed, `+${shown.added} −${shown.removed}`).toBeLessThanOrEqual(8 * k);
  }, 60_000);
});
