// rt39 "No cliffs" in the browser approval UI: <DiffView> draws every row of the diff at once.
//
// DiffView (src/react/diff-view.tsx:16) maps every row of every drawn segment to DOM nodes (gutter,
// sign, word pieces) on first render: no cap, no windowing, no "show more" for changed rows (only
// unchanged runs collapse). The terminal pager draws one screen. Measured in Chromium (write_file
// payload, first React commit):
//   20k lines each changed (40k rows): 12.5 s, 92 MB heap;  100k (200k rows): 60.6 s, 435 MB heap;
//   200k lines inserted into a 1-line file (200k rows): 47 s, 322 MB heap.
// Linear, but a card that draws what a person can look at first (as FilePreview does with its 30-line
// head) appears in well under a second at any size.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project } from '../tools/fixture.js';
import { CHROMIUM, openBrowser, renderPayload } from './rt39-browser.js';

describe.skipIf(!fs.existsSync(CHROMIUM))('rt39: a big diff in the approval card (Chromium)', () => {
  let env: Awaited<ReturnType<typeof openBrowser>>;
  beforeAll(async () => {
    env = await openBrowser();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('write_file changing every line of a 40k-line file: the card appears in < 5 s', async () => {
    const N = 40_000;
    const before = Array.from({ length: N }, (_, i) => `row ${i} a`).join('\n');
    const after = Array.from({ length: N }, (_, i) => `row ${i} b`).join('\n');
    const { toolset } = project({ 'f.txt': `${before}\n` });
    const r = await toolset.needsApproval('write_file', { path: '/f.txt', content: `${after}\n` }, {});
    if (r.status !== 'needs_approval') throw new Error(r.status);
    expect(r.payload.type === 'write' && r.payload.diffCoarse).toBe(false);
    const shown = await renderPayload(env, r.payload, 100_000);
    console.log('40k changed lines', { ms: shown.ms, rows: shown.rows });
    expect(shown.errors).toEqual([]);
    expect(shown.ms, `first render took ${Math.round(shown.ms)} ms for ${shown.rows} rows`).toBeLessThan(
      5_000,
    );
  }, 150_000);
});
