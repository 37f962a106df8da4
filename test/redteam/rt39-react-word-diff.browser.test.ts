// rt39 "No cliffs" in the browser approval UI: word-level highlights cost O(line length²) per line pair.
//
// diffRows (src/react/diff-rows.ts:118) pairs each removed line with its added partner and runs jsdiff's
// diffWordsWithSpace on lines up to LONG_LINE = 2,000 characters, and diffChars on a 2,000-character
// window for longer ones, with no maxEditLength/timeout: two unrelated 2,000-character lines cost
// O(n·D) ≈ millions of steps each. PayloadView also runs diffRows twice (statsOf, then DiffView;
// src/react/payload-view.tsx:29). Measured in Chromium, write_file over a file of N long lines, each
// replaced by an unrelated one (diff ≈ 4 KB per line):
//   N=10, 2,000 chars: 2.9 s;  N=30: 6.0 s.   N=10, 2,001 chars: 7.1 s;  N=30: 16.0 s (a 120 KB diff).
// (diffRows alone in Node: 100 pairs of 2,001-character lines, 38 s.) The terminal UI bounds the same
// highlight by the screen width. A bounded highlight renders these in well under a second.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalPayload } from '../../src/index.js';
import { project } from '../tools/fixture.js';
import { CHROMIUM, openBrowser, renderPayload } from './rt39-browser.js';

function longLine(seed: number, length: number): string {
  let s = '';
  for (let i = 0; s.length < length; i++) s += `w${((seed * 7919 + i * 104729) % 99991).toString(36)} `;
  return s.slice(0, length);
}

async function overwritePayload(n: number, length: number): Promise<ApprovalPayload> {
  const before = Array.from({ length: n }, (_, i) => longLine(i, length)).join('\n');
  const after = Array.from({ length: n }, (_, i) => longLine(i + 7_777_777, length)).join('\n');
  const { toolset } = project({ 'f.txt': `${before}\n` });
  const r = await toolset.needsApproval('write_file', { path: '/f.txt', content: `${after}\n` }, {});
  if (r.status !== 'needs_approval') throw new Error(r.status);
  return r.payload;
}

describe.skipIf(!fs.existsSync(CHROMIUM))('rt39: long changed lines in the approval card (Chromium)', () => {
  let env: Awaited<ReturnType<typeof openBrowser>>;
  beforeAll(async () => {
    env = await openBrowser();
  });
  afterAll(async () => {
    await env?.close();
  });

  for (const length of [2_000, 2_001]) {
    it(`30 replaced lines of ${length} characters (a 120 KB diff) render in < 3 s`, async () => {
      const payload = await overwritePayload(30, length);
      expect(payload.type).toBe('write');
      const r = await renderPayload(env, payload, 40_000);
      console.log(`30 × ${length}`, r);
      expect(r.errors).toEqual([]);
      expect(r.ms, `first render took ${Math.round(r.ms)} ms`).toBeLessThan(3_000);
      expect(r.rows).toBeGreaterThanOrEqual(60);
    }, 90_000);
  }
});
