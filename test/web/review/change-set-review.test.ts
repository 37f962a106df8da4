import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewDecisions } from '../../../src/staging/decisions.js';
import { stagedProject } from '../../staging/fixture.js';
import { ok } from '../../tools/fixture.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SAMPLE = path.resolve(import.meta.dirname, '../../../examples/sample-project/src');

describe.skipIf(!fs.existsSync(CHROMIUM))('<ChangeSetReview> in Chromium', () => {
  let browser: Browser;
  let pageDir: string;

  beforeAll(async () => {
    pageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-review-page-'));
    await build({
      entryPoints: [path.join(import.meta.dirname, 'review-page.tsx')],
      bundle: true,
      format: 'iife',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      outfile: path.join(pageDir, 'page.js'),
      logLevel: 'silent',
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(pageDir, { recursive: true, force: true });
  });

  it('keyboard only: pick a file, reject one change, apply; the disk gets exactly the rest', async () => {
    const files = Object.fromEntries(
      fs.readdirSync(SAMPLE).map((n) => [n, fs.readFileSync(path.join(SAMPLE, n), 'utf8')]),
    );
    const { dir, toolset, staging } = stagedProject({ ...files, 'CHANGELOG.md': '# Changelog\n' });
    ok(
      await toolset.callTool('edit_file', {
        path: '/todo-list.ts',
        old_string: '/${this',
        new_string: ' of ${this',
      }),
    );
    ok(
      await toolset.callTool('edit_file', {
        path: '/format.ts',
        old_string: '"[x] 1. write docs"',
        new_string: '"[x] 1. ~~write docs~~"',
      }),
    );
    ok(
      await toolset.callTool('edit_file', {
        path: '/format.ts',
        old_string: '${item.title}`',
        new_string: '${item.done ? `~~${item.title}~~` : item.title}`',
      }),
    );
    ok(
      await toolset.callTool('write_file', {
        path: '/CHANGELOG.md',
        content: '# Changelog\n\n- N of M done\n',
      }),
    );
    const set = staging.changeSet();
    const html = path.join(pageDir, 'index.html');
    fs.writeFileSync(
      html,
      `<!doctype html><meta charset="utf-8"><body><div id="root"></div><script>window.__SET__=${JSON.stringify(set).replace(/</g, '\\u003c')}</script><script src="page.js"></script>`,
    );
    const page = await browser.newPage({ viewport: { width: 900, height: 760 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`file://${html}`);
    const review = page.getByRole('region', { name: 'Review changes' });
    await review.waitFor();
    await expect(review.locator('.sa-title').textContent()).resolves.toMatch(
      /Review 3 changed files\s*\+5 −3/,
    );
    await review.focus();
    await page.keyboard.press('ArrowDown');
    await expect(review.locator('.sa-file.sa-selected .sa-path').textContent()).resolves.toBe('/format.ts');
    await page.keyboard.press('n');
    await page.keyboard.press(' ');
    await expect(review.locator('.sa-hunk-block.sa-current input').isChecked()).resolves.toBe(false);
    await expect(review.locator('.sa-file.sa-selected .sa-mark').textContent()).resolves.toBe('[~]');
    await page.getByLabel('Note for the agent on /format.ts').fill('no strikethrough yet');
    await review.focus();
    if (process.env.REVIEW_SCREENSHOT)
      await page.screenshot({ path: process.env.REVIEW_SCREENSHOT, fullPage: true });
    await page.keyboard.press('y');
    await page.getByText('Decisions sent.').waitFor();
    const decisions = (await page.evaluate('window.__DECISIONS__')) as ReviewDecisions;
    expect(errors).toEqual([]);
    expect(decisions.files['/format.ts']).toMatchObject({ action: 'hunks', note: 'no strikethrough yet' });
    const result = await staging.apply(decisions);
    expect(result.ok).toBe(true);
    const format = fs.readFileSync(path.join(dir, 'format.ts'), 'utf8');
    expect(format).toContain('"[x] 1. ~~write docs~~"');
    expect(format).toContain('${item.title}`');
    expect(format).not.toContain('item.done ? `~~');
    expect(fs.readFileSync(path.join(dir, 'todo-list.ts'), 'utf8')).toContain(' of ${this.items.length}');
    expect(result.summary).toContain('no strikethrough yet');
    await page.close();
  }, 60_000);
});
