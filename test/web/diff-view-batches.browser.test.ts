import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, openBrowser } from '../redteam/rt39-browser.js';
import { project } from '../tools/fixture.js';

/**
 * A big diff in the approval card, in Chromium: the first 1,000 lines, a note of
 * what is not shown yet, and a button (keyboard too) that draws the next 1,000
 * until the whole diff is drawn. Uses the rt39 page: <PayloadView> of window.__PAYLOAD__.
 */
describe.skipIf(!fs.existsSync(CHROMIUM))('<DiffView> of a big diff, a batch at a time (Chromium)', () => {
  let env: Awaited<ReturnType<typeof openBrowser>>;
  beforeAll(async () => {
    env = await openBrowser();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('write_file changing 1,200 lines: 1,000 lines drawn, then Enter and Space draw the rest', async () => {
    const N = 1_200;
    const before = Array.from({ length: N }, (_, i) => `row ${i} a`).join('\n');
    const after = Array.from({ length: N }, (_, i) => `row ${i} b`).join('\n');
    const { toolset } = project({ 'f.txt': `${before}\n` });
    const r = await toolset.needsApproval('write_file', { path: '/f.txt', content: `${after}\n` }, {});
    if (r.status !== 'needs_approval') throw new Error(r.status);
    fs.writeFileSync(path.join(env.pageDir, 'big.js'), `window.__PAYLOAD__=${JSON.stringify(r.payload)}`);
    const html = path.join(env.pageDir, 'big.html');
    fs.writeFileSync(
      html,
      '<!doctype html><meta charset="utf-8"><body><div id="root"></div><script src="big.js"></script><script src="page.js"></script>',
    );
    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`file://${html}`);
      const lines = page.locator('.sa-row[data-kind]');
      const note = page.locator('output.sa-not-shown');
      const more = page.getByRole('button', { name: /Show .* more line/ });
      await more.waitFor();
      // The stats stay complete while the rows are not.
      await expect(page.locator('.sa-stats').textContent()).resolves.toBe('+1200 −1200');
      await expect(lines.count()).resolves.toBe(1_000);
      await expect(note.textContent()).resolves.toMatch(
        /^1,400 more lines of this diff \(\+[\d,]+ −[\d,]+\) are not shown yet/,
      );
      await expect(more.textContent()).resolves.toBe('⋯ Show 1,000 more lines (1,400 not shown yet) ⋯');
      await expect(more.getAttribute('aria-describedby')).resolves.toBe(await note.getAttribute('id'));

      await more.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => lines.count()).toBe(2_000);
      await expect(note.textContent()).resolves.toMatch(/^400 more lines/);
      // The button keeps the focus: the next batch is one more key press away.
      await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe(
        '⋯ Show 400 more lines (400 not shown yet) ⋯',
      );
      await page.keyboard.press('Space');
      await expect.poll(() => lines.count()).toBe(2_400);
      await expect(note.count()).resolves.toBe(0);
      await expect(more.count()).resolves.toBe(0);
      // Every line once, in order: the old lines 1..1,200 and the new lines 1..1,200.
      const numbers = await lines.evaluateAll((rows) =>
        rows.map((row) => Array.from(row.querySelectorAll('.sa-no'), (n) => n.textContent!.trim()).join('|')),
      );
      const olds = numbers
        .map((n) => n.split('|')[0])
        .filter(Boolean)
        .map(Number);
      const news = numbers
        .map((n) => n.split('|')[1])
        .filter(Boolean)
        .map(Number);
      expect(olds).toEqual(Array.from({ length: N }, (_, i) => i + 1));
      expect(news).toEqual(Array.from({ length: N }, (_, i) => i + 1));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
  it('a new file of 2,500 lines: its head, then batches of 1,000 lines, then the rest', async () => {
    const N = 2_500;
    const content = `${Array.from({ length: N }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
    const { toolset } = project({});
    const r = await toolset.needsApproval('write_file', { path: '/new.txt', content }, {});
    if (r.status !== 'needs_approval') throw new Error(r.status);
    fs.writeFileSync(path.join(env.pageDir, 'new.js'), `window.__PAYLOAD__=${JSON.stringify(r.payload)}`);
    const html = path.join(env.pageDir, 'new.html');
    fs.writeFileSync(
      html,
      '<!doctype html><meta charset="utf-8"><body><div id="root"></div><script src="new.js"></script><script src="page.js"></script>',
    );
    const page = await env.browser.newPage();
    try {
      await page.goto(`file://${html}`);
      const lines = page.locator('.sa-preview .sa-row');
      const more = page.locator('.sa-preview button.sa-gap');
      await more.waitFor();
      await expect(lines.count()).resolves.toBe(30);
      await expect(more.textContent()).resolves.toBe('⋯ Show 970 more lines (2,470 not shown yet) ⋯');
      await more.click();
      await expect.poll(() => lines.count()).toBe(1_000);
      await expect(more.textContent()).resolves.toBe('⋯ Show 1,000 more lines (1,500 not shown yet) ⋯');
      await more.click();
      await expect.poll(() => lines.count()).toBe(2_000);
      await expect(more.textContent()).resolves.toBe('⋯ Show all 2,500 lines ⋯');
      await more.click();
      await expect.poll(() => lines.count()).toBe(N);
      await expect(more.count()).resolves.toBe(0);
      const texts = await lines.evaluateAll((rows) =>
        rows.map((row) => row.querySelector('.sa-text')!.textContent),
      );
      expect(texts).toEqual(Array.from({ length: N }, (_, i) => `line ${i + 1}`));
    } finally {
      await page.close();
    }
  });
});
