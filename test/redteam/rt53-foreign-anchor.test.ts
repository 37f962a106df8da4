import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

// Promise 3: a toolset that never showed a file resolves another toolset's anchors exactly as it
// would in a process where nobody else ever read that file (the shared cache must not make an
// anchor valid). Oracle: the same dry-run edit_lines in a child process with a cold cache.

const WORKER = path.join(import.meta.dirname, 'rt53-cold-worker.ts');
const LINES = ['}', '', '  x = 1;', 'if (a) {', '  return x;', 'é}', '😀', '\t}'];

describe('rt53 foreign anchors', () => {
  it("B (never read the file) gets the same answer for A's anchors as a cold process gives", async () => {
    const dir = tempDir({}, { keep: true });
    const jobs: { path: string; readFirst: boolean; operations: unknown[] }[] = [];
    const got: { res: unknown; why: string }[] = [];
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...LINES), { minLength: 2, maxLength: 30 }),
          fc.constantFrom('\n', '\r\n'),
          fc.array(
            fc.tuple(fc.nat(), fc.integer({ min: -2, max: 2 }), fc.constantFrom('bare', 'numbered', 'full')),
            { minLength: 1, maxLength: 6 },
          ),
          fc.boolean(),
          async (lines, eol, picks, aEdits) => {
            const name = `f${n++}.txt`;
            const text = lines.join(eol) + eol;
            fs.writeFileSync(path.join(dir, name), text);
            const a = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
            const r = await a.callTool('read_file', { path: `/${name}`, hashes: true });
            let shown = (r as any).data.content.split('\n') as string[];
            if (aEdits) {
              // A edits, so the cache holds derived hashes and anchors of the new version, and A
              // is shown the new anchors in its diff.
              const first = shown[0]!;
              const e = await a.callTool('edit_lines', {
                path: `/${name}`,
                sanity: 'off',
                operations: [{ op: 'insert_after', hash: first.slice(0, first.indexOf('|')), content: '}' }],
              });
              if (!e.ok) return;
              const diffAnchors = String((e.data as any).diff)
                .split('\n')
                .filter((l) => /^[+ ]\d+#/.test(l))
                .map((l) => l.slice(1));
              const again = await a.callTool('read_file', { path: `/${name}`, hashes: true });
              shown = [...(again as any).data.content.split('\n'), ...diffAnchors];
            }
            // The bytes B edits, copied to a fresh name for the cold process (same bytes).
            const coldName = `cold-${name}`;
            fs.copyFileSync(path.join(dir, name), path.join(dir, coldName));
            for (const [k, delta, form] of picks) {
              const l = shown[k % shown.length]!;
              const anchor = l.slice(0, l.indexOf('|'));
              const [num, h] = anchor.split('#');
              const given =
                form === 'bare' ? h : form === 'numbered' ? `${Math.max(1, Number(num) + delta)}#${h}` : l;
              const operations = [{ op: 'replace_line', hash: given, content: 'B' }];
              const b = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
              const res = await b.callTool('edit_lines', { path: `/${name}`, operations, dryRun: true });
              got.push({
                res: res.ok ? { ok: true, diff: (res.data as any).diff } : { error: res.error.code },
                why: `${JSON.stringify(text)} A-edits=${aEdits} ${JSON.stringify(operations)}`,
              });
              jobs.push({ path: `/${coldName}`, readFirst: false, operations });
            }
          },
        ),
        { numRuns: 200 },
      );
      const jobFile = path.join(dir, 'job.json');
      fs.writeFileSync(jobFile, JSON.stringify({ dir, reads: [], edits: jobs }));
      const out = JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', WORKER, jobFile], {
          maxBuffer: 1 << 28,
        }).toString(),
      );
      const strip = (x: unknown) => JSON.stringify(x).replace(/\/(cold-)?f\d+\.txt/g, 'P');
      const bad: string[] = [];
      out.edits.forEach((c: unknown, i: number) => {
        if (strip(c) !== strip(got[i]!.res))
          bad.push(`${got[i]!.why}\n warm: ${strip(got[i]!.res)}\n cold: ${strip(c)}`);
      });
      const okCount = got.filter((g) => (g.res as any).ok).length;
      console.log(`foreign anchor cases ${got.length}, resolved ${okCount}`);
      expect(bad.slice(0, 3)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
