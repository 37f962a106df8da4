// rt32: edit_lines calls with several operations among equal lines. The "known region" fix
// bounds the diff to [first op, last op]; between two ops the diff is free to slide.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import {
  anchorsOf,
  applyLineOps,
  applyShown,
  checkAgainstTruth,
  cleanup,
  type LineOp,
  nativeBatch,
  runGated,
  tempDir,
  toolLineOp,
} from './rt32-harness.js';

afterEach(cleanup);

async function check(lines: string[], ops: LineOp[]) {
  const before = `${lines.join('\n')}\n`;
  const truth = applyLineOps(lines, ops);
  const r = await runGated(before, 'edit_lines', (a) => ({
    operations: ops.map((o) => toolLineOp(o, a[o.line]!)),
    sanity: 'off',
  }));
  return { r, before, truth, expected: truth.length ? `${truth.map((t) => t.text).join('\n')}\n` : '' };
}

describe('rt32 edit_lines multi-op payload placement', () => {
  // BREAK: file "x\n" x5; ops insert_before line 1 "x" and insert_before line 3 "x".
  // The tool inserts before line 1 and before line 3; the payload shows both lines
  // inserted together after line 2 (@@ -1,5 +1,7 @@  x x +x +x x x x).
  it('two insert_before ops among equal lines are shown at their anchors', async () => {
    const { r, expected, truth } = await check(
      ['x', 'x', 'x', 'x', 'x'],
      [
        { kind: 'insert_before', line: 0, content: 'x' },
        { kind: 'insert_before', line: 2, content: 'x' },
      ],
    );
    expect(r.outcome.ok).toBe(true);
    expect(r.after).toBe(expected);
    expect(applyShown(r.before, r.payload.unifiedDiff)).toBe(r.after);
    expect(checkAgainstTruth(r.payload.unifiedDiff, r.before.split('\n').slice(0, -1), truth)).toEqual([]);
  });

  // BREAK: 20 lines of "}"; insert_after line 2 "}" and replace_line 16 with "x".
  // Shown: only "+x" after line 16 (as if line 16 were kept and nothing inserted at line 2).
  it('insert + replace far apart in a run of braces are shown at their anchors', async () => {
    const lines = Array(20).fill('}');
    const { r, truth } = await check(lines, [
      { kind: 'insert_after', line: 1, content: '}' },
      { kind: 'replace', line: 15, content: 'x' },
    ]);
    expect(r.outcome.ok).toBe(true);
    expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
  });

  // Whole class: low-entropy files, 2-3 ops on distinct lines. Written bytes always equal the
  // true result and the diff always reproduces them (held); placement is what breaks.
  it('property: written bytes are the ops applied, and the diff reproduces them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', '}', 'x'), { minLength: 3, maxLength: 30 }),
        fc.array(
          fc.record({
            line: fc.nat(),
            kind: fc.constantFrom('replace', 'insert_after', 'insert_before', 'delete'),
            content: fc.constantFrom('}', '', 'x', 'N'),
          }),
          { minLength: 2, maxLength: 3 },
        ),
        async (lines, raw) => {
          const seen = new Set<number>();
          const ops: LineOp[] = [];
          for (const o of raw) {
            const l = o.line % lines.length;
            if (seen.has(l)) continue;
            seen.add(l);
            ops.push({ ...o, line: l } as LineOp);
          }
          const { r, expected, before } = await check(lines, ops);
          if (!r.outcome.ok) return;
          expect(r.after).toBe(expected);
          if (r.after !== before) expect(applyShown(before, r.payload.unifiedDiff)).toBe(r.after);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  // BREAK (whole class): same generator, placement checked against the true edit.
  it('property: every op is shown at its anchor (untouched lines kept in place)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', '}', 'x'), { minLength: 3, maxLength: 30 }),
        fc.array(
          fc.record({
            line: fc.nat(),
            kind: fc.constantFrom('replace', 'insert_after', 'insert_before', 'delete'),
            content: fc.constantFrom('}', '', 'x', 'N'),
          }),
          { minLength: 2, maxLength: 3 },
        ),
        async (lines, raw) => {
          const seen = new Set<number>();
          const ops: LineOp[] = [];
          for (const o of raw) {
            const l = o.line % lines.length;
            if (seen.has(l)) continue;
            seen.add(l);
            ops.push({ ...o, line: l } as LineOp);
          }
          const { r, truth, before } = await check(lines, ops);
          if (!r.outcome.ok || r.after === before) return;
          expect(checkAgainstTruth(r.payload.unifiedDiff, lines, truth)).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});

describe('rt32 native batch: multi-op edit_lines then edit_lines', () => {
  // BREAK: 20 lines of "}". Call 1 (edit_lines): insert_after line 2 "}", replace_line 16 -> "x".
  // Call 2 (edit_lines, shown against the same start): replace_line 9 -> "Y" (shown at line 9,
  // whose original line is now line 10 after call 1's insertion). Both approved and run: Y is
  // written at line 9 of the new file — the original line 8 — one line off from where it was
  // shown, and not refused as stale_approval. (Call 1's payload showed only "+x" after line 16,
  // the rebase followed that picture.)
  it('the later call lands on the line it was shown, or is refused', async () => {
    const lines = Array(20).fill('}');
    const before = `${lines.join('\n')}\n`;
    const dir = tempDir({ 'f.txt': before });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const rd: any = await toolset.callTool('read_file', { path: '/f.txt', hashes: true });
    const a = anchorsOf(rd.data.content);
    const op1: LineOp[] = [
      { kind: 'insert_after', line: 1, content: '}' },
      { kind: 'replace', line: 15, content: 'x' },
    ];
    const op2: LineOp[] = [{ kind: 'replace', line: 8, content: 'Y' }];
    const res = await nativeBatch(dir, toolset, [
      {
        name: 'edit_lines',
        input: { path: '/f.txt', operations: op1.map((o) => toolLineOp(o, a[o.line]!)), sanity: 'off' },
      },
      {
        name: 'edit_lines',
        input: { path: '/f.txt', operations: op2.map((o) => toolLineOp(o, a[o.line]!)), sanity: 'off' },
      },
    ]);
    const txt = (t: ReturnType<typeof applyLineOps>) => `${t.map((x) => x.text).join('\n')}\n`;
    const ok = [
      txt(applyLineOps(lines, [...op1, ...op2])),
      txt(applyLineOps(lines, op1)),
      txt(applyLineOps(lines, op2)),
      before,
    ];
    expect(ok).toContain(res.after);
    expect(fs.existsSync(path.join(dir, 'f.txt'))).toBe(true);
  });
});
