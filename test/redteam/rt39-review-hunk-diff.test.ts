// rt39 "No cliffs" for change-set review: opening a file's changes costs O(hunks × file lines).
//
// hunkDiff (src/staging/hunk-diff.ts:10) splits the WHOLE base text into lines for every hunk it
// renders, and every review surface renders every hunk of the open file: the terminal review's
// fileBody (src/terminal/review/render-review.ts:49), <ChangeSetReview> (src/react/change-set-review.tsx:154,
// again on every keypress, since each re-render calls hunkDiff for all hunks) and MCP submit_changes
// (src/mcp/submit-changes.ts:53). Measured (one staged write_file, K scattered one-line changes):
//   10k lines / 100 hunks:  ~0.1 s;  100k lines / 1,000 hunks: ~10.5 s (88×);  1M lines / 1,000 hunks: ~260 s.
// Splitting once per file makes each surface linear (100k lines / 1,000 hunks well under a second).
import fs from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { ChangeSetReview } from '../../src/react/index.js';
import { fileBody } from '../../src/terminal/review/render-review.js';
import { createStyle } from '../../src/terminal/style.js';
import { tempDir } from '../helpers/temp-project.js';

async function stagedSet(N: number, K: number) {
  const lines = Array.from({ length: N }, (_, i) => `row ${i}`);
  const dir = tempDir({ 'f.txt': `${lines.join('\n')}\n` });
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { staging: true });
  const want = lines.slice();
  const step = Math.floor(N / K);
  for (let k = 0; k < K; k++) want[k * step + 1] = `CHANGED ${k}`;
  const r = await ts.callTool('write_file', { path: '/f.txt', content: `${want.join('\n')}\n` });
  expect(r.ok).toBe(true);
  const set = ts.stage().changeSet();
  expect(set.files[0]!.hunks.length).toBe(K);
  expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(`${lines.join('\n')}\n`);
  return set;
}

describe('rt39: reviewing a file with many hunks is linear in the file', () => {
  it('terminal review: the body of a 100k-line file with 1,000 changes renders in < 3 s (today ~15 s)', async () => {
    const set = await stagedSet(100_000, 1_000);
    const f = set.files[0]!;
    const t = performance.now();
    const body = fileBody(
      { file: f, accepted: f.hunks.map(() => true), hunkNotes: new Map() } as never,
      0,
      createStyle(false),
      100,
    );
    const ms = performance.now() - t;
    expect(body.hunkStarts.length).toBe(1_000);
    expect(body.lines.join('\n')).toContain('{+999+}');
    expect(ms, `fileBody took ${Math.round(ms)} ms`).toBeLessThan(3_000);
  }, 120_000);

  it('<ChangeSetReview>: first render of the same set in < 5 s (today ~15 s)', async () => {
    const set = await stagedSet(100_000, 1_000);
    const t = performance.now();
    const html = renderToStaticMarkup(createElement(ChangeSetReview, { changeSet: set, onSubmit: () => {} }));
    const ms = performance.now() - t;
    expect(html).toContain('Accept change 1000/1000');
    expect(ms, `render took ${Math.round(ms)} ms`).toBeLessThan(5_000);
  }, 120_000);
});
